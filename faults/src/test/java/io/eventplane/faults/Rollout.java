package io.eventplane.faults;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.core.Keys;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The Deployment "web" of {@code replicas} pods the kill cases roll out again and again (each round a new image), and
 * what they check of it and of the served state.
 */
record Rollout(int replicas) {
    static final Duration CONVERGE = Duration.ofSeconds(180);
    /** Slows each rollout step down, so that a kill lands in the middle of the rollout, not after it. */
    static final int MIN_READY_SECONDS = 2;
    static final String PATH = "/apis/apps/v1/namespaces/default/deployments/web";

    String deployment() {
        return "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},"
                + "\"spec\":{\"replicas\":" + replicas + ",\"minReadySeconds\":" + MIN_READY_SECONDS
                + ",\"selector\":{\"matchLabels\":{\"app\":\"web\"}},"
                + "\"strategy\":{\"rollingUpdate\":{\"maxSurge\":\"25%\",\"maxUnavailable\":\"25%\"}},"
                + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx:1\"}]}}}}";
    }

    /** The rollout is done: every replica updated, available, and nothing of the old ReplicaSets left. */
    boolean rolledOut(JsonNode d) {
        JsonNode s = d.path("status");
        return s.path("observedGeneration").asLong() == d.path("metadata").path("generation").asLong()
                && s.path("updatedReplicas").asInt() == replicas && s.path("replicas").asInt() == replicas
                && s.path("availableReplicas").asInt() == replicas && s.path("readyReplicas").asInt() == replicas;
    }

    /** The new template is being rolled out: some replicas updated, not all. */
    boolean midRollout(JsonNode d) {
        JsonNode s = d.path("status");
        int updated = s.path("updatedReplicas").asInt();
        return s.path("observedGeneration").asLong() == d.path("metadata").path("generation").asLong()
                && updated >= replicas / 4 && updated < replicas;
    }

    /** Waits for the rollout to be done and returns the Deployment. */
    JsonNode awaitRolledOut(Api api) throws InterruptedException {
        return api.await(PATH, this::rolledOut, CONVERGE);
    }

    /** Waits for the rollout to be half-way and returns how far it is, worded. */
    String awaitMidRollout(Api api) throws InterruptedException {
        JsonNode d = api.await(PATH, this::midRollout, CONVERGE);
        return d.path("status").path("updatedReplicas").asInt() + "/" + replicas + " updated";
    }

    /** Changes the template (a new ReplicaSet: a rollout); retried while the API is away (its process was killed). */
    HttpResponse<String> patchUntilAcknowledged(Api api, int round) throws Exception {
        String patch = "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx:"
                + (round + 1) + "\"}]}}}}";
        long deadline = System.nanoTime() + CONVERGE.toNanos();
        HttpResponse<String> r = null;
        while (System.nanoTime() < deadline) {
            r = api.patch(PATH, "application/strategic-merge-patch+json",
                    patch);
            if (r.statusCode() == 200) {
                return r;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the rollout could not be started: " + (r == null ? "" : r.body()));
    }

    /** After convergence: exactly {@code replicas} pods of the Deployment, all Running, each name once. */
    void checkPods(Api api, List<String> failures, String victim) throws Exception {
        JsonNode pods = api.getJson("/api/v1/namespaces/default/pods?labelSelector=app%3Dweb");
        List<String> running = new ArrayList<>();
        pods.path("items").forEach(p -> {
            if (p.path("metadata").path("deletionTimestamp").isMissingNode()
                    && "Running".equals(p.path("status").path("phase").asText())) {
                running.add(p.path("metadata").path("name").asText());
            }
        });
        if (running.size() != replicas || running.stream().distinct().count() != replicas) {
            failures.add("after killing " + victim + ": " + running.size() + " running pods for " + replicas
                    + " replicas (" + pods.path("items").size() + " in all)");
        }
    }

    static long rv(String body) throws Exception {
        return Long.parseLong(Api.JSON.readTree(body).path("metadata").path("resourceVersion").asText());
    }
}
