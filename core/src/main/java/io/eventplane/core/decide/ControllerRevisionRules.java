package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import io.eventplane.model.ControllerRevision;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** apps/v1 ControllerRevision: data is mandatory and immutable, revision non-negative (STS-X01). */
final class ControllerRevisionRules implements KindRules<ControllerRevision> {

    @Override
    public ControllerRevision prepareForCreate(ControllerRevision revision, Instant now) {
        return revision;
    }

    @Override
    public List<StatusCause> validate(ControllerRevision revision) {
        List<StatusCause> causes = new ArrayList<>();
        if (revision.getData() == null) {
            causes.add(Causes.required("data", "data is mandatory"));
        }
        long r = revision.getRevision() == null ? 0 : revision.getRevision();
        Workloads.nonNegative("revision", r, causes);
        return causes;
    }

    @Override
    public List<StatusCause> validateUpdate(ControllerRevision old, ControllerRevision updated) {
        List<StatusCause> causes = new ArrayList<>();
        Workloads.immutable("data", old.getData(), updated.getData(), "runtime.RawExtension{...}", causes);
        return causes;
    }
}
