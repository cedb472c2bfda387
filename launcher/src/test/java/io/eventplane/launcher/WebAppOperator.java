package io.eventplane.launcher;

import static io.eventplane.testkit.objects.KubeObjects.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.client.ClusterView;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.Owners;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Deployment;
import io.eventplane.model.DeploymentSpec;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.apiextensions.CustomObject;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The operator of the tests' WebApp kind, as a user would write one on Eventplane's runtime: each WebApp gets a
 * Deployment it controls (its name, pods labelled {@code app=<name>} requesting 100m CPU) whose replicas follow the
 * WebApp's spec.replicas, and the WebApp's status carries the Deployment's replicas and the selector string its scale
 * subresource reads ({@code status.selector}), as kubebuilder's operators publish them for the HPA.
 */
final class WebAppOperator implements Reconciler {
    static final String KIND = "WebApp";
    /** The kind's name on the log: a custom kind is named with its group. */
    static final String LOG_KIND = KIND + ".shop.example.com";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public String kind() {
        return LOG_KIND;
    }

    @Override
    public Collection<String> keysFor(ObjectChanged change, ObjectChanged previous, ClusterView view) {
        if (change.getKind().equals(LOG_KIND)) {
            return List.of(Keys.of(LOG_KIND, change.getNamespace(), change.getName()));
        }
        if (change.getObject() instanceof Deployment d) {
            return Owners.controllerOf(d.getMetadata()).filter(r -> KIND.equals(r.getKind()))
                    .map(r -> List.of(Keys.of(LOG_KIND, change.getNamespace(), r.getName()))).orElse(List.of());
        }
        return List.of();
    }

    @Override
    public Reconciliation reconcile(String key, ClusterView view, Instant now, String lastFailure) {
        CustomObject app = view.get(key).map(c -> (CustomObject) c.getObject()).orElse(null);
        if (app == null || app.getMetadata().getDeletionTimestamp() != null) {
            return Reconciliation.NOTHING;
        }
        ObjectMeta meta = app.getMetadata();
        JsonNode spec = read(app.getContent()).path("spec");
        int replicas = spec.path("replicas").asInt(1);
        Deployment owned = view.get(Kinds.DEPLOYMENT.kind(), meta.getNamespace(), meta.getName())
                .map(c -> (Deployment) c.getObject()).orElse(null);
        if (owned == null) {
            return Reconciliation.of(List.of(new Action.Create(desired(app, replicas, spec.path("image")
                    .asText("registry.k8s.io/pause:3.10")), null, "FailedCreate")));
        }
        if (!Owners.isControlledBy(owned.getMetadata(), meta.getUid())) {
            return Reconciliation.NOTHING; // someone else's Deployment of that name
        }
        List<Action> actions = new ArrayList<>();
        if (owned.getSpec().getReplicas() == null || owned.getSpec().getReplicas() != replicas) {
            actions.add(new Action.Update(Deployment.newBuilder(owned).setSpec(DeploymentSpec.newBuilder(owned.getSpec())
                    .setReplicas(replicas).build()).build()));
        }
        ObjectNode status = JSON.createObjectNode();
        Integer current = owned.getStatus() == null ? null : owned.getStatus().getReplicas();
        status.put("replicas", current == null ? 0 : current);
        status.put("selector", "app=" + meta.getName());
        if (!status.equals(read(app.getStatus()))) {
            actions.add(new Action.UpdateStatus(CustomObject.newBuilder(app).setStatus(status.toString()).build()));
        }
        return Reconciliation.of(actions);
    }

    private static Deployment desired(CustomObject app, int replicas, String image) {
        ObjectMeta meta = app.getMetadata();
        OwnerReference owner = OwnerReference.newBuilder().setApiVersion(app.getApiVersion()).setKind(KIND)
                .setName(meta.getName()).setUid(meta.getUid()).setController(true).setBlockOwnerDeletion(true).build();
        return deployment(meta.getName()).namespace(meta.getNamespace()).replicas(replicas).image(image)
                .template(t -> t.requests("100m", "64Mi")).ownedBy(owner).build();
    }

    private static JsonNode read(String json) {
        try {
            return json == null ? JSON.createObjectNode() : JSON.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
