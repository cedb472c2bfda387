package io.eventplane.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.core.Keys;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The promises a fault must not break, checked against the log read back whole once the cluster has converged: every
 * acknowledged write in the log exactly once, no command applied twice, no ReplicaSet that created a pod beyond its
 * replicas, no 5xx but 503/504, and the objects the API serves equal to the log folded from its start.
 */
final class Promises {
    private Promises() {
    }

    /**
     * @param acknowledged the test's own acknowledged writes, as key@resourceVersion
     * @param answers      the background load's answers (its 201s are acknowledged creates)
     * @param failures     what the test found wrong on the way (asserted empty here, after the figures)
     */
    static void check(String faultCase, EventplaneConfig config, Api api, List<String> acknowledged,
                      List<LoadGenerator.Answer> answers, List<String> failures) throws Exception {
        // The log: every acknowledged write once, nothing applied twice, no ReplicaSet above its replicas.
        LogCheck log = LogCheck.read(config);
        List<String> lost = new ArrayList<>();
        for (String write : acknowledged) {
            int at = write.lastIndexOf('@');
            if (log.count(write.substring(0, at), Long.parseLong(write.substring(at + 1))) != 1) {
                lost.add(write);
            }
        }
        long backgroundAcks = 0;
        for (LoadGenerator.Answer a : answers) {
            if (a.status() == 201) {
                backgroundAcks++;
                if (log.creations(Keys.of("ConfigMap", "default", a.name()), a.uid()) != 1) {
                    lost.add("ConfigMap " + a.name());
                }
            }
        }
        List<LoadGenerator.Answer> errors = answers.stream()
                .filter(a -> a.status() >= 500 && a.status() != 503 && a.status() != 504).toList();
        Map<String, LogCheck.ReplicaSetTally> tallies = new HashMap<>();
        List<String> violations = log.replicaSetViolations(tallies);
        Map<String, Integer> repeated = log.repeatedRequests();
        Figures.report(faultCase, "acknowledged writes (rollouts + background creates)",
                acknowledged.size() + " + " + backgroundAcks + " of " + answers.size());
        Figures.report(faultCase, "acknowledged writes lost or doubled", lost.size());
        Figures.report(faultCase, "commands applied twice", repeated.size());
        Figures.report(faultCase, "pods created by a ReplicaSet above its replicas (twins)", violations.size());
        Figures.report(faultCase, "background 5xx other than 503/504", errors.size());

        // State rebuilt from the log equals the state served (read again while the gateway's view catches up).
        String difference = "";
        for (int attempt = 0; attempt < 20; attempt++) {
            difference = differences(LogCheck.read(config).liveVersions("default", "Pod", "ConfigMap"),
                    served(api));
            if (difference.equals("0")) {
                break;
            }
            Thread.sleep(500);
        }
        Figures.report(faultCase, "served objects differing from the log's fold", difference);

        assertEquals(List.of(), failures);
        assertEquals(List.of(), lost, "every acknowledged write is in the log exactly once");
        assertEquals(Map.of(), repeated, "no command applied twice");
        assertEquals(List.of(), violations, "no ReplicaSet created a pod beyond its replicas");
        assertEquals(List.of(), errors);
        assertEquals("0", difference, "the served state is the log's fold");
        assertTrue(backgroundAcks > 0);
    }

    /** The pods and ConfigMaps the API serves, as key@resourceVersion. */
    static List<String> served(Api api) throws Exception {
        List<String> out = new ArrayList<>();
        for (String kind : List.of("Pod", "ConfigMap")) {
            api.getJson("/api/v1/namespaces/default/" + kind.toLowerCase(Locale.ROOT) + "s").path("items")
                    .forEach(i -> out.add(Keys.of(kind, "default", i.path("metadata").path("name").asText()) + "@"
                            + i.path("metadata").path("resourceVersion").asText()));
        }
        return out;
    }

    static String differences(List<String> a, List<String> b) {
        a = a.stream().sorted().toList();
        b = b.stream().sorted().toList();
        List<String> onlyA = new ArrayList<>(a);
        onlyA.removeAll(b);
        List<String> onlyB = new ArrayList<>(b);
        onlyB.removeAll(a);
        return (onlyA.size() + onlyB.size()) + (onlyA.isEmpty() && onlyB.isEmpty() ? ""
                : " (only in the log: " + onlyA + ", only served: " + onlyB + ")");
    }
}
