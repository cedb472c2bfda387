package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import io.eventplane.model.StorageClass;
import io.eventplane.model.TopologySelectorLabelRequirement;
import io.eventplane.model.TopologySelectorTerm;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * storage.k8s.io/v1 StorageClass (ValidateStorageClass and its update): a provisioner is required; provisioner,
 * parameters, reclaimPolicy and volumeBindingMode never change. Which class is the default is read from its
 * annotation; the provisioner itself is the next phase's.
 */
final class StorageClassRules implements KindRules<StorageClass> {
    static final List<String> RECLAIM_POLICIES = List.of("Delete", "Retain");
    static final List<String> BINDING_MODES = List.of("Immediate", "WaitForFirstConsumer");
    static final int MAX_PARAMETERS = 512;
    static final int MAX_PARAMETERS_SIZE = 256 * 1024;

    /** SetDefaults_StorageClass. */
    @Override
    public StorageClass defaults(StorageClass sc) {
        StorageClass.Builder out = StorageClass.newBuilder(sc);
        if (sc.getReclaimPolicy() == null) {
            out.setReclaimPolicy("Delete");
        }
        if (sc.getVolumeBindingMode() == null) {
            out.setVolumeBindingMode("Immediate");
        }
        return out.build();
    }

    @Override
    public StorageClass prepareForCreate(StorageClass sc, Instant now) {
        return sc;
    }

    @Override
    public List<StatusCause> validate(StorageClass sc) {
        List<StatusCause> causes = new ArrayList<>();
        String provisioner = sc.getProvisioner() == null ? "" : sc.getProvisioner();
        if (provisioner.isEmpty()) {
            causes.add(Causes.required("provisioner"));
        } else {
            Formats.qualifiedName(provisioner.toLowerCase(Locale.ROOT))
                    .forEach(m -> causes.add(Causes.invalid("provisioner", provisioner, m)));
        }
        Map<String, String> parameters = sc.getParameters() == null ? Map.of() : sc.getParameters();
        if (parameters.size() > MAX_PARAMETERS) {
            causes.add(Causes.cause("FieldValueTooLong", "parameters", "parameters: Too long: may not be more than "
                    + MAX_PARAMETERS + " bytes"));
        } else {
            long size = 0;
            for (Map.Entry<String, String> e : parameters.entrySet()) {
                if (e.getKey().isEmpty()) {
                    causes.add(Causes.invalid("parameters", "", "field can not be empty."));
                }
                size += e.getKey().length() + e.getValue().length();
            }
            if (size > MAX_PARAMETERS_SIZE) {
                causes.add(ConfigMapRules.tooLong("parameters", MAX_PARAMETERS_SIZE));
            }
        }
        if (sc.getReclaimPolicy() != null && !sc.getReclaimPolicy().isEmpty()
                && !RECLAIM_POLICIES.contains(sc.getReclaimPolicy())) {
            causes.add(Causes.notSupported("reclaimPolicy", sc.getReclaimPolicy(), RECLAIM_POLICIES));
        }
        if (sc.getVolumeBindingMode() == null) {
            causes.add(Causes.required("volumeBindingMode"));
        } else if (!BINDING_MODES.contains(sc.getVolumeBindingMode())) {
            causes.add(Causes.notSupported("volumeBindingMode", sc.getVolumeBindingMode(), BINDING_MODES));
        }
        topologies(sc.getAllowedTopologies(), causes);
        return causes;
    }

    /** validateAllowedTopologies: each requirement has values, unique ones, and a label key; keys once per term. */
    private static void topologies(List<TopologySelectorTerm> terms, List<StatusCause> causes) {
        if (terms == null) {
            return;
        }
        for (int i = 0; i < terms.size(); i++) {
            List<TopologySelectorLabelRequirement> exprs = terms.get(i).getMatchLabelExpressions() == null ? List.of()
                    : terms.get(i).getMatchLabelExpressions();
            Set<String> keys = new HashSet<>();
            for (int j = 0; j < exprs.size(); j++) {
                TopologySelectorLabelRequirement r = exprs.get(j);
                String f = "allowedTopologies[" + i + "].matchLabelExpressions[" + j + "]";
                List<String> values = r.getValues() == null ? List.of() : r.getValues();
                if (values.isEmpty()) {
                    causes.add(Causes.required(f + ".values"));
                }
                Set<String> seen = new HashSet<>();
                for (int k = 0; k < values.size(); k++) {
                    if (!seen.add(values.get(k))) {
                        causes.add(Causes.duplicate(f + ".values[" + k + "]", values.get(k)));
                    }
                }
                String key = r.getKey() == null ? "" : r.getKey();
                Formats.qualifiedName(f + ".key", key, causes);
                if (!keys.add(key)) {
                    causes.add(Causes.duplicate(f + ".key", key));
                }
            }
        }
    }

    @Override
    public List<StatusCause> validateUpdate(StorageClass old, StorageClass updated) {
        List<StatusCause> causes = new ArrayList<>();
        if (!ConfigMapRules.sameMap(old.getParameters(), updated.getParameters())) {
            causes.add(Causes.forbidden("parameters", "updates to parameters are forbidden."));
        }
        if (!Objects.equals(old.getProvisioner(), updated.getProvisioner())) {
            causes.add(Causes.forbidden("provisioner", "updates to provisioner are forbidden."));
        }
        if (!Objects.equals(old.getReclaimPolicy(), updated.getReclaimPolicy())) {
            causes.add(Causes.forbidden("reclaimPolicy", "updates to reclaimPolicy are forbidden."));
        }
        if (!Objects.equals(old.getVolumeBindingMode(), updated.getVolumeBindingMode())) {
            causes.add(Causes.invalid("volumeBindingMode", Objects.toString(updated.getVolumeBindingMode(), "null"),
                    "field is immutable"));
        }
        return causes;
    }
}
