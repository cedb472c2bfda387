package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import io.eventplane.model.allocation.NodePortAllocation;
import io.eventplane.model.networking.ParentReference;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Eventplane's NodePortAllocation: named by a port number, with a required, immutable parent reference (as an
 * IPAddress). Whether the port is in the cluster's range is the allocator's to check, as kube-apiserver's is.
 */
final class NodePortAllocationRules implements KindRules<NodePortAllocation> {

    @Override
    public Optional<StatusCause> validateName(String name) {
        boolean number = name != null && name.matches("[1-9][0-9]{0,4}") && Integer.parseInt(name) <= 65535;
        return number ? Optional.empty()
                : Optional.of(Causes.invalid("metadata.name", name == null ? "" : name, ServiceValidation.PORT_RANGE));
    }

    @Override
    public NodePortAllocation prepareForCreate(NodePortAllocation allocation, Instant now) {
        return allocation;
    }

    @Override
    public List<StatusCause> validate(NodePortAllocation allocation) {
        List<StatusCause> causes = new ArrayList<>();
        IPAddressRules.parentRef("spec.parentRef", allocation.getSpec() == null ? null : allocation.getSpec().getParentRef(),
                causes);
        return causes;
    }

    @Override
    public List<StatusCause> validateUpdate(NodePortAllocation old, NodePortAllocation updated) {
        ParentReference before = old.getSpec() == null ? null : old.getSpec().getParentRef();
        ParentReference after = updated.getSpec() == null ? null : updated.getSpec().getParentRef();
        return Objects.equals(before, after) ? List.of()
                : List.of(Causes.invalidShown("spec.parentRef", IPAddressRules.goReference(after), "field is immutable"));
    }
}
