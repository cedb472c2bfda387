package io.eventplane.controllers.clusterroleaggregation;

import io.eventplane.client.ClusterView;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.rbac.ClusterRole;
import io.eventplane.model.rbac.PolicyRule;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * The ClusterRole aggregation controller (kube-controller-manager's {@code clusterrole-aggregation}): a ClusterRole
 * with an {@code aggregationRule} gets as its rules those of every other ClusterRole its selectors match, in name
 * order, each rule once. Keyed by the aggregating role; any ClusterRole's change wakes every aggregating role, since a
 * new label or rule elsewhere may change what it aggregates.
 */
public final class ClusterRoleAggregationReconciler implements Reconciler {

    @Override
    public String kind() {
        return Kinds.CLUSTER_ROLE.kind();
    }

    @Override
    public Collection<String> keysFor(ObjectChanged change, ObjectChanged previous, ClusterView view) {
        if (!change.getKind().equals(kind())) {
            return List.of();
        }
        List<String> keys = new ArrayList<>();
        for (ClusterRole role : view.<ClusterRole>objects(kind(), null)) {
            if (role.getAggregationRule() != null) {
                keys.add(Keys.of(kind(), "", role.getMetadata().getName()));
            }
        }
        return keys;
    }

    @Override
    public Reconciliation reconcile(String key, ClusterView view, Instant now, String lastFailure) {
        ObjectChanged current = view.get(key).orElse(null);
        if (current == null || !(current.getObject() instanceof ClusterRole role) || role.getAggregationRule() == null) {
            return Reconciliation.NOTHING;
        }
        List<PolicyRule> rules = aggregated(role, view.objects(kind(), null));
        List<PolicyRule> had = role.getRules() == null ? List.of() : role.getRules();
        if (rules.equals(had)) {
            return Reconciliation.NOTHING;
        }
        return Reconciliation.of(List.of(new Action.Update(ClusterRole.newBuilder(role).setRules(rules).build())));
    }

    /** The rules of the roles {@code role}'s selectors match (not itself), by role name, each rule once. */
    public static List<PolicyRule> aggregated(ClusterRole role, List<ClusterRole> all) {
        List<LabelSelector> selectors = role.getAggregationRule().getClusterRoleSelectors() == null ? List.of()
                : role.getAggregationRule().getClusterRoleSelectors();
        List<ClusterRole> matching = new ArrayList<>();
        for (ClusterRole other : all) {
            if (other.getMetadata().getName().equals(role.getMetadata().getName())) {
                continue;
            }
            for (LabelSelector s : selectors) {
                if (LabelSelectors.matches(s, other.getMetadata().getLabels())) {
                    matching.add(other);
                    break;
                }
            }
        }
        matching.sort(Comparator.comparing(r -> r.getMetadata().getName()));
        List<PolicyRule> rules = new ArrayList<>();
        for (ClusterRole r : matching) {
            if (r.getRules() != null) {
                for (PolicyRule rule : r.getRules()) {
                    if (!rules.contains(rule)) {
                        rules.add(rule);
                    }
                }
            }
        }
        return rules;
    }
}
