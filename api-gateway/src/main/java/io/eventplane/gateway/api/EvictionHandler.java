package io.eventplane.gateway.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.KubeStatus;
import io.eventplane.gateway.wire.KubeStatus.Cause;
import io.eventplane.gateway.wire.KubeStatus.Details;
import io.eventplane.gateway.wire.Statuses;
import io.eventplane.log.DeleteOptions;
import io.eventplane.log.ObjectChanged;
import io.eventplane.log.Preconditions;
import io.eventplane.log.Verb;
import io.eventplane.client.Requests;
import io.eventplane.core.meta.Conditions;
import io.eventplane.core.meta.PodStates;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodStatus;
import io.eventplane.model.PodDisruptionBudget;
import io.eventplane.model.PodDisruptionBudgetStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * POST pods/{name}/eviction with a policy/v1 Eviction: a pod deletion that respects PodDisruptionBudgets, as
 * {@code kubectl drain} and the node lifecycle use it. A terminal or already terminating pod, or one no budget covers,
 * is deleted at once. Otherwise its one budget must allow a disruption: then the eviction is recorded in the budget's
 * status ({@code disruptionsAllowed} one less, the pod in {@code disruptedPods}, written with the budget's
 * resourceVersion as precondition) and the pod deleted; if not, 429 TooManyRequests with Kubernetes' message. A pod
 * that is not Ready takes no disruption when the budget's {@code unhealthyPodEvictionPolicy} is AlwaysAllow, or under
 * IfHealthyBudget (the default) when the application has its desired healthy pods; it is then deleted only if still
 * at the version judged. Every pod deleted gets the DisruptionTarget condition first (EvictionByEvictionAPI).
 */
final class EvictionHandler {
    private static final int ATTEMPTS = 3;
    private final Backend backend;
    private final Submitter submitter;

    EvictionHandler(Backend backend, Submitter submitter) {
        this.backend = backend;
        this.submitter = submitter;
    }

    ApiResponse evict(ApiRequest request, ResourcePath path) {
        if (path.kind() != Kinds.POD) {
            throw new ApiException(Statuses.noSuchResource());
        }
        JsonNode eviction = PatchHandler.parseJson(request.body());
        if (!eviction.isObject()) {
            throw new ApiException(Statuses.badRequest("an Eviction must be a JSON object"));
        }
        String kind = eviction.path("kind").asText("Eviction");
        if (!kind.equals("Eviction")) {
            throw new ApiException(Statuses.badRequest("expected an Eviction, got a " + kind));
        }
        String name = eviction.path("metadata").path("name").asText("");
        if (!name.isEmpty() && !name.equals(path.name())) {
            throw new ApiException(Statuses.badRequest("name in URL does not match name in Eviction object"));
        }
        JsonNode options = eviction.path("deleteOptions");
        boolean dryRun = DryRun.requested(request) || options.path("dryRun").toString().contains("All");
        for (int attempt = 1; ; attempt++) {
            Pod pod = (Pod) ReadHandler.current(backend.view(), path);
            DeleteOptions delete = DeleteOptions.newBuilder()
                    .setGracePeriodSeconds(options.hasNonNull("gracePeriodSeconds")
                            ? Long.valueOf(options.get("gracePeriodSeconds").asLong()) : null)
                    .setPropagationPolicy(options.hasNonNull("propagationPolicy")
                            ? options.get("propagationPolicy").asText() : null)
                    .build();
            Preconditions preconditions = Preconditions.newBuilder()
                    .setUid(options.path("preconditions").hasNonNull("uid")
                            ? options.path("preconditions").get("uid").asText() : pod.getMetadata().getUid())
                    .setResourceVersion(options.path("preconditions").hasNonNull("resourceVersion")
                            ? options.path("preconditions").get("resourceVersion").asText() : null)
                    .build();
            String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
            boolean bypass = "Succeeded".equals(phase) || "Failed".equals(phase)
                    || pod.getMetadata().getDeletionTimestamp() != null;
            List<PodDisruptionBudget> budgets = bypass ? List.of() : budgetsOf(pod, path.namespace());
            if (budgets.size() > 1) {
                throw new ApiException(new KubeStatus(500, "InternalError", "This pod has more than one "
                        + "PodDisruptionBudget, which the eviction subresource does not support.", null));
            }
            boolean unhealthyPath = false;
            if (!budgets.isEmpty()) {
                PodDisruptionBudget pdb = budgets.get(0);
                unhealthyPath = !PodStates.isReady(pod) && unhealthyMayGo(pdb);
                if (!unhealthyPath) {
                    refuseUnlessAllowed(pdb);
                }
                if (!dryRun && !unhealthyPath) {
                    try {
                        submitter.forRequest(request).put(Verb.UPDATE_STATUS, Kinds.POD_DISRUPTION_BUDGET,
                                path.namespace(), pdb.getMetadata().getName(), withEviction(pdb, pod, now()));
                    } catch (ApiException e) {
                        if (e.status().code() == 409 && attempt < ATTEMPTS) {
                            continue; // the budget changed meanwhile: decide again on the new one
                        }
                        throw e.status().code() == 409 ? new ApiException(tooMany("the disruption budget "
                                + pdb.getMetadata().getName() + " changed while the eviction was decided; try again",
                                List.of())) : e;
                    }
                }
            }
            if (!dryRun) {
                String marked = markDisruptionTarget(request, path, pod);
                if (unhealthyPath && preconditions.getResourceVersion() == null && marked != null) {
                    // Not counted against the budget because it is not Ready: only if it is still this version.
                    preconditions.setResourceVersion(marked);
                }
                submitter.forRequest(request).delete(Kinds.POD, path.namespace(), path.name(), preconditions, delete);
            }
            return ApiResponse.status(Statuses.success(201));
        }
    }

    /** The budgets in the pod's namespace whose selector matches its labels (an empty selector matches none). */
    private List<PodDisruptionBudget> budgetsOf(Pod pod, String namespace) {
        Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
        List<PodDisruptionBudget> out = new ArrayList<>();
        for (ObjectChanged c : backend.view().list(Kinds.POD_DISRUPTION_BUDGET.kind(), namespace)) {
            PodDisruptionBudget pdb = (PodDisruptionBudget) c.getObject();
            if (pdb.getSpec() != null && pdb.getSpec().getSelector() != null
                    && !LabelSelectors.isEmpty(pdb.getSpec().getSelector())
                    && LabelSelectors.matches(pdb.getSpec().getSelector(), labels)) {
                out.add(pdb);
            }
        }
        return out;
    }

    /**
     * Whether a pod that is not Ready may go without taking a disruption from its budget (POD-17.11): always under
     * {@code unhealthyPodEvictionPolicy: AlwaysAllow}; under IfHealthyBudget (the default) once the budget has
     * processed its spec and the application has the healthy pods it needs.
     */
    static boolean unhealthyMayGo(PodDisruptionBudget pdb) {
        if (pdb.getSpec() != null && "AlwaysAllow".equals(pdb.getSpec().getUnhealthyPodEvictionPolicy())) {
            return true;
        }
        PodDisruptionBudgetStatus status = pdb.getStatus();
        if (!processed(pdb)) {
            return false;
        }
        int desired = nz(status.getDesiredHealthy());
        return nz(status.getCurrentHealthy()) >= desired && desired > 0;
    }

    private static boolean processed(PodDisruptionBudget pdb) {
        PodDisruptionBudgetStatus status = pdb.getStatus();
        long generation = pdb.getMetadata().getGeneration() == null ? 0 : pdb.getMetadata().getGeneration();
        return status != null && status.getObservedGeneration() != null && status.getObservedGeneration() >= generation;
    }

    /**
     * The DisruptionTarget condition (reason EvictionByEvictionAPI) on the pod about to be deleted (POD-17.14), retried
     * on a conflicting write as the API server's update does; answers the pod's new resourceVersion, or null when the
     * pod went or changed identity meanwhile.
     */
    private String markDisruptionTarget(ApiRequest request, ResourcePath path, Pod pod) {
        Pod current = pod;
        for (int attempt = 1; ; attempt++) {
            PodStatus status = current.getStatus() == null ? new PodStatus() : current.getStatus();
            PodCondition condition = PodCondition.newBuilder().setType("DisruptionTarget").setStatus("True")
                    .setReason("EvictionByEvictionAPI").setMessage("Eviction API: evicting")
                    .setLastTransitionTime(now()).build();
            Pod marked = Pod.newBuilder(current).setStatus(PodStatus.newBuilder(status)
                    .setConditions(Conditions.set(status.getConditions(), condition)).build()).build();
            try {
                Requests.Result r = submitter.forRequest(request).put(Verb.UPDATE_STATUS, Kinds.POD, path.namespace(),
                        path.name(), marked);
                return r.object() == null ? null : Long.toString(r.object().getResourceVersion());
            } catch (ApiException e) {
                if (e.status().code() == 404) {
                    return null;
                }
                if (e.status().code() != 409 || attempt >= ATTEMPTS) {
                    throw e;
                }
            }
            Pod again = (Pod) ReadHandler.current(backend.view(), path);
            if (!again.getMetadata().getUid().equals(pod.getMetadata().getUid())) {
                return null;
            }
            current = again;
        }
    }

    private static void refuseUnlessAllowed(PodDisruptionBudget pdb) {
        PodDisruptionBudgetStatus status = pdb.getStatus();
        String name = pdb.getMetadata().getName();
        if (!processed(pdb)) {
            throw new ApiException(tooMany("Cannot evict pod as it would violate the pod's disruption budget.",
                    List.of(new Cause("DisruptionBudget", "The disruption budget " + name
                            + " is still being processed by the server.", null))));
        }
        int allowed = status.getDisruptionsAllowed() == null ? 0 : status.getDisruptionsAllowed();
        if (allowed <= 0) {
            throw new ApiException(tooMany("Cannot evict pod as it would violate the pod's disruption budget.",
                    List.of(new Cause("DisruptionBudget", "The disruption budget " + name + " needs "
                            + nz(status.getDesiredHealthy()) + " healthy pods and has " + nz(status.getCurrentHealthy())
                            + " currently", null))));
        }
    }

    private static PodDisruptionBudget withEviction(PodDisruptionBudget pdb, Pod pod, Instant now) {
        PodDisruptionBudgetStatus status = PodDisruptionBudgetStatus.newBuilder(pdb.getStatus()).build();
        status.setDisruptionsAllowed(status.getDisruptionsAllowed() - 1);
        Map<String, Instant> disrupted = status.getDisruptedPods() == null ? new HashMap<>()
                : new HashMap<>(status.getDisruptedPods());
        disrupted.put(pod.getMetadata().getName(), now);
        status.setDisruptedPods(disrupted);
        return PodDisruptionBudget.newBuilder(pdb).setStatus(status).build();
    }

    private static KubeStatus tooMany(String message, List<Cause> causes) {
        return new KubeStatus(429, "TooManyRequests", message, new Details(null, null, null, causes));
    }

    private static int nz(Integer v) {
        return v == null ? 0 : v;
    }

    private Instant now() {
        return backend.clock().instant();
    }
}
