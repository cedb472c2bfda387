package io.eventplane.core.decide;

import io.eventplane.core.codec.Quantity;
import io.eventplane.log.StatusCause;
import io.eventplane.model.LimitRange;
import io.eventplane.model.LimitRangeItem;
import io.eventplane.model.LimitRangeSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * core/v1 LimitRange (ValidateLimitRange): one item per type, resource names that suit the type, and min &le;
 * default request &le; default &le; max with a sensible max limit/request ratio; a Container item's defaults are
 * filled from max and min (SetDefaults_LimitRangeItem). Applying limits to pods (admission) is the next phase's.
 */
final class LimitRangeRules implements KindRules<LimitRange> {
    static final List<String> STANDARD_TYPES = List.of("Pod", "Container", "PersistentVolumeClaim");

    @Override
    public LimitRange defaults(LimitRange limitRange) {
        if (limitRange.getSpec() == null || limitRange.getSpec().getLimits() == null) {
            return limitRange;
        }
        List<LimitRangeItem> items = new ArrayList<>();
        for (LimitRangeItem item : limitRange.getSpec().getLimits()) {
            if (!"Container".equals(item.getType())) {
                items.add(item);
                continue;
            }
            Map<String, String> def = copy(item.getDefault$());
            Map<String, String> defRequest = copy(item.getDefaultRequest());
            if (item.getMax() != null) {
                item.getMax().forEach(def::putIfAbsent); // a default limit from the max
            }
            def.forEach(defRequest::putIfAbsent); // a default request from the default limit
            if (item.getMin() != null) {
                item.getMin().forEach(defRequest::putIfAbsent); // or from the min
            }
            items.add(LimitRangeItem.newBuilder(item).setDefault$(def).setDefaultRequest(defRequest).build());
        }
        return LimitRange.newBuilder(limitRange).setSpec(LimitRangeSpec.newBuilder(limitRange.getSpec())
                .setLimits(items).build()).build();
    }

    private static Map<String, String> copy(Map<String, String> m) {
        return m == null ? new LinkedHashMap<>() : new LinkedHashMap<>(m);
    }

    @Override
    public LimitRange prepareForCreate(LimitRange limitRange, Instant now) {
        return limitRange;
    }

    @Override
    public List<StatusCause> validate(LimitRange limitRange) {
        List<StatusCause> causes = new ArrayList<>();
        List<LimitRangeItem> limits = limitRange.getSpec() == null || limitRange.getSpec().getLimits() == null
                ? List.of() : limitRange.getSpec().getLimits();
        Set<String> types = new HashSet<>();
        for (int i = 0; i < limits.size(); i++) {
            item("spec.limits[" + i + "]", limits.get(i), types, causes);
        }
        return causes;
    }

    private static void item(String f, LimitRangeItem item, Set<String> types, List<StatusCause> causes) {
        String type = item.getType() == null ? "" : item.getType();
        int before = causes.size();
        Formats.qualifiedName(f + ".type", type, causes);
        if (causes.size() == before && !type.contains("/") && !STANDARD_TYPES.contains(type)) {
            causes.add(Causes.invalid(f + ".type", type, "must be a standard limit type or fully qualified"));
        }
        if (!types.add(type)) {
            causes.add(Causes.duplicate(f + ".type", type));
        }
        Set<String> keys = new TreeSet<>();
        names(f + ".max", type, item.getMax(), keys, causes);
        names(f + ".min", type, item.getMin(), keys, causes);
        if (type.equals("Pod")) {
            if (!empty(item.getDefault$())) {
                causes.add(Causes.forbidden(f + ".default", "may not be specified when `type` is 'Pod'"));
            }
            if (!empty(item.getDefaultRequest())) {
                causes.add(Causes.forbidden(f + ".defaultRequest", "may not be specified when `type` is 'Pod'"));
            }
        } else {
            names(f + ".default", type, item.getDefault$(), keys, causes);
            names(f + ".defaultRequest", type, item.getDefaultRequest(), keys, causes);
        }
        if (type.equals("PersistentVolumeClaim") && !has(item.getMin(), "storage") && !has(item.getMax(), "storage")) {
            causes.add(Causes.required(f + ".limits", // sic: Kubernetes' path
                    "either minimum or maximum storage value is required, but neither was provided"));
        }
        names(f + ".maxLimitRequestRatio", type, item.getMaxLimitRequestRatio(), keys, causes);
        for (String k : keys) {
            Quantity min = get(item.getMin(), k);
            Quantity max = get(item.getMax(), k);
            Quantity def = type.equals("Pod") ? null : get(item.getDefault$(), k);
            Quantity defRequest = type.equals("Pod") ? null : get(item.getDefaultRequest(), k);
            Quantity ratio = get(item.getMaxLimitRequestRatio(), k);
            if (min != null && max != null && min.compareTo(max) > 0) {
                causes.add(invalid(f + ".min[" + k + "]", min, "min value " + min + " is greater than max value " + max));
            }
            if (defRequest != null && min != null && min.compareTo(defRequest) > 0) {
                causes.add(invalid(f + ".defaultRequest[" + k + "]", defRequest, "min value " + min
                        + " is greater than default request value " + defRequest));
            }
            if (defRequest != null && max != null && defRequest.compareTo(max) > 0) {
                causes.add(invalid(f + ".defaultRequest[" + k + "]", defRequest, "default request value " + defRequest
                        + " is greater than max value " + max));
            }
            if (defRequest != null && def != null && defRequest.compareTo(def) > 0) {
                causes.add(invalid(f + ".defaultRequest[" + k + "]", defRequest, "default request value " + defRequest
                        + " is greater than default limit value " + def));
            }
            if (def != null && min != null && min.compareTo(def) > 0) {
                causes.add(invalid(f + ".default[" + k + "]", min, "min value " + min + " is greater than default value " + def));
            }
            if (def != null && max != null && def.compareTo(max) > 0) {
                causes.add(invalid(f + ".default[" + k + "]", max, "default value " + def + " is greater than max value " + max));
            }
            if (ratio != null && ratio.compareTo(Quantity.parse("1")) < 0) {
                causes.add(invalid(f + ".maxLimitRequestRatio[" + k + "]", ratio, "ratio " + ratio + " is less than 1"));
            }
            if (ratio != null && min != null && max != null && min.milliValue() != 0) {
                double limit = (double) max.milliValue() / min.milliValue();
                if (ratio.milliValue() / 1000.0 > limit) {
                    causes.add(invalid(f + ".maxLimitRequestRatio[" + k + "]", ratio, "ratio " + ratio
                            + " is greater than max/min = " + String.format(Locale.ROOT, "%f", limit)));
                }
            }
            if (!Resources.overcommitAllowed(k) && def != null && defRequest != null && def.compareTo(defRequest) != 0) {
                causes.add(invalid(f + ".defaultRequest[" + k + "]", defRequest, "default value " + def
                        + " must equal to defaultRequest value " + defRequest + " in " + k));
            }
        }
    }

    private static void names(String f, String type, Map<String, String> list, Set<String> keys, List<StatusCause> causes) {
        if (list == null) {
            return;
        }
        for (String k : new TreeSet<>(list.keySet())) {
            if (type.equals("Pod") || type.equals("Container")) {
                Resources.containerName(f + "[" + k + "]", k, causes);
            } else {
                Resources.name(f + "[" + k + "]", k, causes);
            }
            keys.add(k);
        }
    }

    private static StatusCause invalid(String field, Quantity value, String detail) {
        return Causes.invalid(field, value.canonical(), detail);
    }

    private static Quantity get(Map<String, String> list, String key) {
        String v = list == null ? null : list.get(key);
        return v == null ? null : Quantity.parse(v);
    }

    private static boolean has(Map<String, String> list, String key) {
        return list != null && list.containsKey(key);
    }

    private static boolean empty(Map<?, ?> m) {
        return m == null || m.isEmpty();
    }
}
