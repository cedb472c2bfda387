package io.eventplane.client.admission;

import io.eventplane.client.ClusterView;
import io.eventplane.core.codec.Quantity;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.quota.PodResources;
import io.eventplane.core.quota.ResourceLists;
import io.eventplane.model.Container;
import io.eventplane.model.LimitRange;
import io.eventplane.model.LimitRangeItem;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.ResourceRequirements;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.specific.SpecificRecord;

/**
 * Kubernetes' LimitRanger plugin. A new pod's containers get the default requests and limits of their namespace's
 * LimitRanges where they state none (and the {@code kubernetes.io/limit-ranger} annotation says which); then every
 * container, and the pod as a whole, must stay within min, max and maxLimitRequestRatio, and a claim's storage request
 * within its min and max, or the object is refused with Kubernetes' message
 * ({@code maximum cpu usage per Container is 1, but limit is 2}).
 */
final class LimitRanger implements AdmissionChain.Mutating, AdmissionChain.Validating {
    static final String ANNOTATION = "kubernetes.io/limit-ranger";
    private final ClusterView view;

    LimitRanger(ClusterView view) {
        this.view = view;
    }

    private List<LimitRange> limitRanges(String namespace) {
        return view.objects(Kinds.LIMIT_RANGE.kind(), namespace);
    }

    /** Pods on create, claims on create and update (a pod's resources never change afterwards). */
    private static boolean applies(AdmissionRequest request) {
        return (request.kind() == Kinds.POD && request.operation() == AdmissionRequest.Operation.CREATE)
                || (request.kind() == Kinds.PERSISTENT_VOLUME_CLAIM && request.operation() != AdmissionRequest.Operation.DELETE);
    }

    @Override
    public SpecificRecord admit(AdmissionRequest request, SpecificRecord object) {
        if (!applies(request) || request.kind() != Kinds.POD || ((Pod) object).getSpec() == null) {
            return object;
        }
        Pod pod = (Pod) object;
        for (LimitRange lr : limitRanges(request.namespace())) {
            pod = withDefaults(pod, lr);
        }
        return pod;
    }

    /** mergePodResourceRequirements: the range's Container defaults where a container states none. */
    static Pod withDefaults(Pod pod, LimitRange lr) {
        Map<String, String> defaultLimits = new TreeMap<>();
        Map<String, String> defaultRequests = new TreeMap<>();
        for (LimitRangeItem item : items(lr)) {
            if ("Container".equals(item.getType())) {
                putAll(defaultRequests, item.getDefaultRequest());
                putAll(defaultLimits, item.getDefault$());
            }
        }
        List<String> notes = new ArrayList<>();
        PodSpec spec = PodSpec.newBuilder(pod.getSpec()).build();
        spec.setContainers(merge(spec.getContainers(), defaultRequests, defaultLimits, "container", notes));
        spec.setInitContainers(merge(spec.getInitContainers(), defaultRequests, defaultLimits, "init container", notes));
        if (notes.isEmpty()) {
            return pod;
        }
        Map<String, String> annotations = pod.getMetadata().getAnnotations() == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(pod.getMetadata().getAnnotations());
        annotations.put(ANNOTATION, "LimitRanger plugin set: " + String.join("; ", notes));
        return Pod.newBuilder(pod).setSpec(spec)
                .setMetadata(ObjectMeta.newBuilder(pod.getMetadata()).setAnnotations(annotations).build()).build();
    }

    private static List<Container> merge(List<Container> containers, Map<String, String> requests,
                                         Map<String, String> limits, String what, List<String> notes) {
        if (containers == null) {
            return null;
        }
        List<Container> out = new ArrayList<>();
        for (Container c : containers) {
            ResourceRequirements r = c.getResources() == null ? new ResourceRequirements()
                    : ResourceRequirements.newBuilder(c.getResources()).build();
            Map<String, String> ownLimits = r.getLimits() == null ? new LinkedHashMap<>() : new LinkedHashMap<>(r.getLimits());
            Map<String, String> ownRequests = r.getRequests() == null ? new LinkedHashMap<>()
                    : new LinkedHashMap<>(r.getRequests());
            List<String> setLimits = new ArrayList<>();
            List<String> setRequests = new ArrayList<>();
            limits.forEach((k, v) -> {
                if (ownLimits.putIfAbsent(k, v) == null) {
                    setLimits.add(k);
                }
            });
            requests.forEach((k, v) -> {
                if (ownRequests.putIfAbsent(k, v) == null) {
                    setRequests.add(k);
                }
            });
            if (!setRequests.isEmpty()) {
                notes.add(String.join(", ", setRequests) + " request for " + what + " " + c.getName());
            }
            if (!setLimits.isEmpty()) {
                notes.add(String.join(", ", setLimits) + " limit for " + what + " " + c.getName());
            }
            if (setLimits.isEmpty() && setRequests.isEmpty()) {
                out.add(c);
            } else {
                r.setLimits(ownLimits);
                r.setRequests(ownRequests);
                out.add(Container.newBuilder(c).setResources(r).build());
            }
        }
        return out;
    }

    @Override
    public void validate(AdmissionRequest request, SpecificRecord object) {
        if (!applies(request)) {
            return;
        }
        if (request.old() != null && io.eventplane.core.meta.ObjectAccess.meta(request.old()).getDeletionTimestamp() != null) {
            return; // an object being deleted is not held to limits
        }
        for (LimitRange lr : limitRanges(request.namespace())) {
            List<String> errors = object instanceof Pod p ? podErrors(lr, p.getSpec())
                    : claimErrors(lr, (PersistentVolumeClaim) object);
            if (!errors.isEmpty()) {
                String why = errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]";
                throw AdmissionRefusal.forbidden(request.kind(), request.name(), why).thrown();
            }
        }
    }

    /** PodValidateLimitFunc: each container against Container items, the pod's totals against Pod items. */
    static List<String> podErrors(LimitRange lr, PodSpec spec) {
        List<String> errors = new ArrayList<>();
        if (spec == null) {
            return errors;
        }
        for (LimitRangeItem item : items(lr)) {
            if ("Container".equals(item.getType())) {
                List<Container> all = new ArrayList<>(list(spec.getContainers()));
                all.addAll(list(spec.getInitContainers()));
                for (Container c : all) {
                    Map<String, Quantity> requests = c.getResources() == null ? Map.of()
                            : ResourceLists.parse(c.getResources().getRequests());
                    Map<String, Quantity> limits = c.getResources() == null ? Map.of()
                            : ResourceLists.parse(c.getResources().getLimits());
                    check("Container", item, requests, limits, errors);
                }
            } else if ("Pod".equals(item.getType())) {
                PodSpec withoutOverhead = PodSpec.newBuilder(spec).setOverhead(null).build(); // the node's, not the pod's
                check("Pod", item, PodResources.requests(withoutOverhead), PodResources.limits(withoutOverhead), errors);
            }
        }
        return errors;
    }

    private static void check(String type, LimitRangeItem item, Map<String, Quantity> requests,
                              Map<String, Quantity> limits, List<String> errors) {
        ResourceLists.parse(item.getMin()).forEach((k, v) -> add(errors, min(type, k, v, requests, limits)));
        ResourceLists.parse(item.getMax()).forEach((k, v) -> add(errors, max(type, k, v, requests, limits)));
        ResourceLists.parse(item.getMaxLimitRequestRatio()).forEach((k, v) -> add(errors, ratio(type, k, v, requests, limits)));
    }

    /** PersistentVolumeClaimValidateLimitFunc: the claim's storage request within min and max. */
    static List<String> claimErrors(LimitRange lr, PersistentVolumeClaim pvc) {
        List<String> errors = new ArrayList<>();
        Map<String, Quantity> requests = pvc.getSpec() == null || pvc.getSpec().getResources() == null ? Map.of()
                : ResourceLists.parse(pvc.getSpec().getResources().getRequests());
        for (LimitRangeItem item : items(lr)) {
            if ("PersistentVolumeClaim".equals(item.getType())) {
                ResourceLists.parse(item.getMin()).forEach((k, v) -> add(errors,
                        min("PersistentVolumeClaim", k, v, requests, Map.of())));
                ResourceLists.parse(item.getMax()).forEach((k, v) -> {
                    Quantity req = requests.get(k);
                    if (req == null) {
                        errors.add("maximum " + k + " usage per PersistentVolumeClaim is " + v + ".  No request is specified");
                    } else if (compare(req, v) > 0) {
                        errors.add("maximum " + k + " usage per PersistentVolumeClaim is " + v + ", but request is " + req);
                    }
                });
            }
        }
        return errors;
    }

    private static String min(String type, String name, Quantity enforced, Map<String, Quantity> requests,
                              Map<String, Quantity> limits) {
        Quantity req = requests.get(name);
        Quantity lim = limits.get(name);
        if (req == null) {
            return "minimum " + name + " usage per " + type + " is " + enforced + ".  No request is specified";
        }
        if (compare(req, enforced) < 0) {
            return "minimum " + name + " usage per " + type + " is " + enforced + ", but request is " + req;
        }
        if (lim != null && compare(lim, enforced) < 0) {
            return "minimum " + name + " usage per " + type + " is " + enforced + ", but limit is " + lim;
        }
        return null;
    }

    private static String max(String type, String name, Quantity enforced, Map<String, Quantity> requests,
                              Map<String, Quantity> limits) {
        Quantity req = requests.get(name);
        Quantity lim = limits.get(name);
        if (lim == null) {
            return "maximum " + name + " usage per " + type + " is " + enforced + ".  No limit is specified";
        }
        if (compare(lim, enforced) > 0) {
            return "maximum " + name + " usage per " + type + " is " + enforced + ", but limit is " + lim;
        }
        if (req != null && compare(req, enforced) > 0) {
            return "maximum " + name + " usage per " + type + " is " + enforced + ", but request is " + req;
        }
        return null;
    }

    private static String ratio(String type, String name, Quantity enforced, Map<String, Quantity> requests,
                                Map<String, Quantity> limits) {
        Quantity req = requests.get(name);
        Quantity lim = limits.get(name);
        String head = name + " max limit to request ratio per " + type + " is " + enforced;
        if (req == null || req.isZero()) {
            return head + ", but no request is specified or request is 0";
        }
        if (lim == null || lim.isZero()) {
            return head + ", but no limit is specified or limit is 0";
        }
        double observed = lim.amount().doubleValue() / req.amount().doubleValue();
        if (observed > enforced.amount().doubleValue()) {
            return head + ", but provided ratio is " + String.format(Locale.ROOT, "%f", observed);
        }
        return null;
    }

    /** Kubernetes compares at milli precision where it can: a request of 1.0001 is within a max of 1. */
    private static int compare(Quantity a, Quantity b) {
        return Long.compare(a.milliValue(), b.milliValue());
    }

    private static void add(List<String> errors, String error) {
        if (error != null) {
            errors.add(error);
        }
    }

    private static List<LimitRangeItem> items(LimitRange lr) {
        return lr.getSpec() == null || lr.getSpec().getLimits() == null ? List.of() : lr.getSpec().getLimits();
    }

    private static void putAll(Map<String, String> into, Map<String, String> from) {
        if (from != null) {
            into.putAll(from);
        }
    }

    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
