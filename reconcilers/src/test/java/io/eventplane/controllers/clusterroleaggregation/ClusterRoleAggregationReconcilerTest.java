package io.eventplane.controllers.clusterroleaggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.ObjectStore;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.rbac.AggregationRule;
import io.eventplane.model.rbac.ClusterRole;
import io.eventplane.model.rbac.PolicyRule;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciliation;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ClusterRoleAggregationReconcilerTest {
    private static final Instant NOW = Instant.parse("2026-11-26T10:00:00Z");
    private final ClusterRoleAggregationReconciler reconciler = new ClusterRoleAggregationReconciler();

    private static PolicyRule rule(String verb, String resource) {
        return PolicyRule.newBuilder().setVerbs(List.of(verb)).setApiGroups(List.of("example.com"))
                .setResources(List.of(resource)).build();
    }

    private static ClusterRole role(String name, Map<String, String> labels, AggregationRule aggregation,
                                    PolicyRule... rules) {
        return ClusterRole.newBuilder().setMetadata(ObjectMeta.newBuilder().setName(name).setLabels(labels)
                .setResourceVersion("7").build()).setRules(List.of(rules)).setAggregationRule(aggregation).build();
    }

    private static AggregationRule selecting(String label) {
        return AggregationRule.newBuilder().setClusterRoleSelectors(List.of(LabelSelector.newBuilder()
                .setMatchLabels(Map.of(label, "true")).build())).build();
    }

    @Test
    @DisplayName("AUTHZ-AGGREGATE: an aggregating ClusterRole gets the rules of the roles its selectors match, by role name, each once")
    void aggregates() {
        ClusterRole monitoring = role("monitoring", Map.of(), selecting("aggregate-to-monitoring"),
                rule("get", "stale"));
        ClusterRole widgets = role("widgets-view", Map.of("aggregate-to-monitoring", "true"), null,
                rule("get", "widgets"), rule("list", "widgets"));
        ClusterRole gadgets = role("gadgets-view", Map.of("aggregate-to-monitoring", "true"), null,
                rule("get", "gadgets"), rule("get", "widgets"));
        ClusterRole unlabelled = role("secrets", Map.of(), null, rule("get", "secrets"));
        ObjectStore view = ObjectStore.of(List.of(monitoring, widgets, gadgets, unlabelled));

        Reconciliation r = reconciler.reconcile("ClusterRole//monitoring", view, NOW, null);
        assertEquals(1, r.actions().size());
        ClusterRole updated = (ClusterRole) ((Action.Update) r.actions().get(0)).object();
        assertEquals(List.of(rule("get", "gadgets"), rule("get", "widgets"), rule("list", "widgets")),
                updated.getRules(), "gadgets-view before widgets-view, get widgets once");
        assertEquals("7", updated.getMetadata().getResourceVersion(), "an update at the version it read");

        ObjectStore done = ObjectStore.of(List.of(updated, widgets, gadgets, unlabelled));
        assertTrue(reconciler.reconcile("ClusterRole//monitoring", done, NOW, null).actions().isEmpty(),
                "nothing when the rules are already the aggregate");
        assertTrue(reconciler.reconcile("ClusterRole//secrets", done, NOW, null).actions().isEmpty(),
                "a role without an aggregationRule is left alone");

        ObjectChanged labelled = ObjectChanged.newBuilder(done.get("ClusterRole//widgets-view").orElseThrow())
                .setType(ChangeType.UPDATED).build();
        assertEquals(List.of("ClusterRole//monitoring"), List.copyOf(reconciler.keysFor(labelled, null, done)),
                "a change to any ClusterRole wakes the aggregating ones");
    }
}
