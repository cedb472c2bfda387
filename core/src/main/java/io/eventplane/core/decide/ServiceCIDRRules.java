package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import io.eventplane.model.networking.ServiceCIDR;
import io.eventplane.model.networking.ServiceCIDRSpec;
import io.eventplane.model.networking.ServiceCIDRStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * networking.k8s.io/v1 ServiceCIDR (ValidateServiceCIDR): one or two CIDRs, one per family, immutable but for adding
 * the second family. Status (the Ready condition) is the controllers'; a new ServiceCIDR has none.
 */
final class ServiceCIDRRules implements KindRules<ServiceCIDR> {

    @Override
    public ServiceCIDR prepareForCreate(ServiceCIDR cidr, Instant now) {
        return ServiceCIDR.newBuilder(cidr).setStatus(new ServiceCIDRStatus()).build();
    }

    @Override
    public List<StatusCause> validate(ServiceCIDR cidr) {
        List<StatusCause> causes = new ArrayList<>();
        spec(cidr.getSpec() == null ? new ServiceCIDRSpec() : cidr.getSpec(), causes);
        return causes;
    }

    private static void spec(ServiceCIDRSpec spec, List<StatusCause> causes) {
        List<String> cidrs = spec.getCidrs() == null ? List.of() : spec.getCidrs();
        String f = "spec.cidrs";
        if (cidrs.isEmpty()) {
            causes.add(Causes.required(f, "at least one CIDR required"));
            return;
        }
        if (cidrs.size() > 2) {
            causes.add(Causes.invalidShown(f, "networking.ServiceCIDRSpec{CIDRs:" + ServiceValidation.goStrings("string",
                    cidrs) + "}", "may only hold up to 2 values"));
            return;
        }
        int before = causes.size();
        for (int i = 0; i < cidrs.size(); i++) {
            Formats.cidr(f + "[" + i + "]", cidrs.get(i), causes);
        }
        if (causes.size() == before && cidrs.size() == 2 && cidrs.get(0).contains(":") == cidrs.get(1).contains(":")) {
            causes.add(Causes.invalidShown(f, ServiceValidation.goStrings("string", cidrs),
                    "may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64"));
        }
    }

    @Override
    public List<StatusCause> validateUpdate(ServiceCIDR old, ServiceCIDR updated) {
        List<String> before = old.getSpec() == null || old.getSpec().getCidrs() == null ? List.of() : old.getSpec().getCidrs();
        List<String> after = updated.getSpec() == null || updated.getSpec().getCidrs() == null ? List.of()
                : updated.getSpec().getCidrs();
        List<StatusCause> causes = new ArrayList<>();
        if (before.size() == after.size()) {
            for (int i = 0; i < before.size(); i++) {
                if (!before.get(i).equals(after.get(i))) {
                    causes.add(Causes.invalid("spec.cidrs[" + i + "]", after.get(i), "field is immutable"));
                }
            }
        } else if (before.size() == 1 && after.size() == 2) {
            if (!after.get(0).equals(before.get(0))) {
                causes.add(Causes.invalid("spec.cidrs[0]", after.get(0), "field is immutable"));
            }
        } else {
            causes.add(Causes.invalidShown("spec.cidrs", ServiceValidation.goStrings("string", after), "field is immutable"));
        }
        return causes;
    }
}
