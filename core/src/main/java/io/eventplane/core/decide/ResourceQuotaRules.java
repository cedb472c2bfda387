package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import io.eventplane.model.ResourceQuota;
import io.eventplane.model.ResourceQuotaSpec;
import io.eventplane.model.ResourceQuotaStatus;
import io.eventplane.model.ScopedResourceSelectorRequirement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * core/v1 ResourceQuota (ValidateResourceQuota and its update): standard quota resource names with valid
 * quantities, supported and compatible scopes, which never change. status (hard and used) is the quota
 * controller's, which, like quota admission, is the next phase's.
 */
final class ResourceQuotaRules implements KindRules<ResourceQuota> {
    static final List<String> SCOPES = List.of("Terminating", "NotTerminating", "BestEffort", "NotBestEffort",
            "PriorityClass", "CrossNamespacePodAffinity");
    private static final Set<String> POD_COMPUTE = Set.of("cpu", "memory", "limits.cpu", "limits.memory",
            "requests.cpu", "requests.memory");
    private static final String EXISTS_ONLY = "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, "
            + "ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or "
            + "ResourceQuotaScopeCrossNamespacePodAffinity";

    @Override
    public ResourceQuota prepareForCreate(ResourceQuota quota, Instant now) {
        return ResourceQuota.newBuilder(quota).setStatus(new ResourceQuotaStatus()).build();
    }

    @Override
    public List<StatusCause> validate(ResourceQuota quota) {
        List<StatusCause> causes = new ArrayList<>();
        ResourceQuotaSpec spec = quota.getSpec() == null ? new ResourceQuotaSpec() : quota.getSpec();
        Resources.list("spec.hard", spec.getHard(), true, causes);
        scopes(spec, causes);
        scopeSelector(spec, causes);
        return causes;
    }

    private static void scopes(ResourceQuotaSpec spec, List<StatusCause> causes) {
        List<String> scopes = spec.getScopes() == null ? List.of() : spec.getScopes();
        if (scopes.isEmpty()) {
            return;
        }
        String shown = ServiceValidation.goStrings("core.ResourceQuotaScope", scopes);
        Set<String> hard = spec.getHard() == null ? Set.of() : new TreeSet<>(spec.getHard().keySet());
        for (String scope : scopes) {
            if (!SCOPES.contains(scope)) {
                causes.add(Causes.invalidShown("spec.scopes", shown, "unsupported scope"));
            }
            for (String resource : hard) {
                if (!validForScope(scope, resource)) {
                    causes.add(Causes.invalidShown("spec.scopes", shown, "unsupported scope applied to resource"));
                }
            }
        }
        if (conflicting(new HashSet<>(scopes))) {
            causes.add(Causes.invalidShown("spec.scopes", shown, "conflicting scopes"));
        }
    }

    private static void scopeSelector(ResourceQuotaSpec spec, List<StatusCause> causes) {
        if (spec.getScopeSelector() == null || spec.getScopeSelector().getMatchExpressions() == null) {
            return;
        }
        String f = "spec.scopeSelector.matchExpressions";
        Set<String> hard = spec.getHard() == null ? Set.of() : new TreeSet<>(spec.getHard().keySet());
        Set<String> seen = new HashSet<>();
        for (ScopedResourceSelectorRequirement r : spec.getScopeSelector().getMatchExpressions()) {
            String scope = r.getScopeName() == null ? "" : r.getScopeName();
            String op = r.getOperator() == null ? "" : r.getOperator();
            List<String> values = r.getValues() == null ? List.of() : r.getValues();
            if (!SCOPES.contains(scope)) {
                causes.add(Causes.invalid(f + ".scopeName", scope, "unsupported scope"));
            }
            for (String resource : hard) {
                if (!validForScope(scope, resource)) {
                    causes.add(Causes.invalidShown(f, "core.ScopeSelector{...}", "unsupported scope applied to resource"));
                }
            }
            if (List.of("BestEffort", "NotBestEffort", "Terminating", "NotTerminating", "CrossNamespacePodAffinity")
                    .contains(scope) && !op.equals("Exists")) {
                causes.add(Causes.invalid(f + ".operator", op, EXISTS_ONLY));
            }
            switch (op) {
                case "In", "NotIn" -> {
                    if (values.isEmpty()) {
                        causes.add(Causes.required(f + ".values",
                                "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
                    }
                }
                case "Exists", "DoesNotExist" -> {
                    if (!values.isEmpty()) {
                        causes.add(Causes.invalidShown(f + ".values", ServiceValidation.goStrings("string", values),
                                "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
                    }
                }
                default -> causes.add(Causes.invalid(f + ".operator", op, "not a valid selector operator"));
            }
            seen.add(scope);
        }
        if (conflicting(seen)) {
            causes.add(Causes.invalidShown(f, ServiceValidation.goStrings("core.ResourceQuotaScope",
                    spec.getScopes() == null ? List.of() : spec.getScopes()), "conflicting scopes"));
        }
    }

    private static boolean conflicting(Set<String> scopes) {
        return scopes.containsAll(List.of("BestEffort", "NotBestEffort"))
                || scopes.containsAll(List.of("Terminating", "NotTerminating"));
    }

    /** A standard quota resource must suit the scope (IsResourceQuotaScopeValidForResource); others always do. */
    private static boolean validForScope(String scope, String resource) {
        if (!Resources.isStandardQuota(resource)) {
            return true;
        }
        return switch (scope) {
            case "Terminating", "NotTerminating", "NotBestEffort", "PriorityClass", "CrossNamespacePodAffinity" ->
                    resource.equals("pods") || POD_COMPUTE.contains(resource);
            case "BestEffort" -> resource.equals("pods");
            default -> true;
        };
    }

    @Override
    public List<StatusCause> validateUpdate(ResourceQuota old, ResourceQuota updated) {
        List<StatusCause> causes = new ArrayList<>();
        List<String> before = old.getSpec() == null || old.getSpec().getScopes() == null ? List.of() : old.getSpec().getScopes();
        List<String> after = updated.getSpec() == null || updated.getSpec().getScopes() == null ? List.of()
                : updated.getSpec().getScopes();
        if (!new HashSet<>(before).equals(new HashSet<>(after))) {
            causes.add(Causes.invalidShown("spec.scopes", ServiceValidation.goStrings("core.ResourceQuotaScope", after),
                    "field is immutable"));
        }
        return causes;
    }

    /** ValidateResourceQuotaStatusUpdate: the controller's hard and used are quota resources with valid values. */
    @Override
    public List<StatusCause> validateStatusUpdate(ResourceQuota old, ResourceQuota updated) {
        List<StatusCause> causes = new ArrayList<>();
        ResourceQuotaStatus status = updated.getStatus() == null ? new ResourceQuotaStatus() : updated.getStatus();
        Resources.list("status.hard", status.getHard(), true, causes);
        Resources.list("status.used", status.getUsed(), true, causes);
        return causes;
    }
}
