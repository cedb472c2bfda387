package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.TypedLocalObjectReference;
import io.eventplane.model.networking.HTTPIngressPath;
import io.eventplane.model.networking.HTTPIngressRuleValue;
import io.eventplane.model.networking.Ingress;
import io.eventplane.model.networking.IngressBackend;
import io.eventplane.model.networking.IngressLoadBalancerIngress;
import io.eventplane.model.networking.IngressLoadBalancerStatus;
import io.eventplane.model.networking.IngressRule;
import io.eventplane.model.networking.IngressServiceBackend;
import io.eventplane.model.networking.IngressSpec;
import io.eventplane.model.networking.IngressStatus;
import io.eventplane.model.networking.IngressTLS;
import io.eventplane.model.networking.ServiceBackendPort;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * networking.k8s.io/v1 Ingress (pkg/apis/networking/validation, registry/networking/ingress): nothing is defaulted (v1
 * has no default pathType, so it is required); status starts empty and only the status subresource changes it; rules'
 * hosts are DNS names or one-label wildcards, never IPs; Exact and Prefix paths are absolute and clean; a backend is a
 * service (a name and one of port name or number) or a resource, never both; the {@code kubernetes.io/ingress.class}
 * annotation must agree with ingressClassName on create. The default IngressClass is the API's admission.
 */
final class IngressRules implements KindRules<Ingress> {
    static final String CLASS_ANNOTATION = "kubernetes.io/ingress.class";
    static final List<String> PATH_TYPES = List.of("Exact", "ImplementationSpecific", "Prefix");
    private static final List<String> INVALID_SEQUENCES = List.of("//", "/./", "/../", "%2f", "%2F");
    private static final List<String> INVALID_SUFFIXES = List.of("/..", "/.");
    private static final Pattern WILDCARD = Pattern.compile(
            "\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    /** Status is the controller's: a new Ingress has none, shown as Kubernetes shows it ({@code loadBalancer: {}}). */
    @Override
    public Ingress prepareForCreate(Ingress ingress, Instant now) {
        return Ingress.newBuilder(ingress).setStatus(IngressStatus.newBuilder()
                .setLoadBalancer(new IngressLoadBalancerStatus()).build()).build();
    }

    @Override
    public List<StatusCause> validate(Ingress ingress) {
        List<StatusCause> causes = new ArrayList<>();
        IngressSpec spec = ingress.getSpec() == null ? new IngressSpec() : ingress.getSpec();
        List<IngressRule> rules = spec.getRules() == null ? List.of() : spec.getRules();
        if (rules.isEmpty() && spec.getDefaultBackend() == null) {
            causes.add(Causes.invalidShown("spec", spec.getRules() == null ? "[]networking.IngressRule(nil)"
                    : "[]networking.IngressRule{}", "either `defaultBackend` or `rules` must be specified"));
        }
        if (spec.getDefaultBackend() != null) {
            backend("spec.defaultBackend", spec.getDefaultBackend(), causes);
        }
        for (int i = 0; i < rules.size(); i++) {
            rule("spec.rules[" + i + "]", rules.get(i), causes);
        }
        tls(spec.getTls(), causes);
        if (spec.getIngressClassName() != null) {
            Formats.subdomain(spec.getIngressClassName()).forEach(m ->
                    causes.add(Causes.invalid("spec.ingressClassName", spec.getIngressClassName(), m)));
        }
        return causes;
    }

    /** ValidateIngressCreate: the beta class annotation and the field may not disagree. */
    @Override
    public List<StatusCause> validateCreate(Ingress ingress) {
        ObjectMeta meta = Workloads.meta(ingress.getMetadata());
        Map<String, String> annotations = meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();
        String annotated = annotations.get(CLASS_ANNOTATION);
        String className = ingress.getSpec() == null ? null : ingress.getSpec().getIngressClassName();
        if (annotated != null && className != null && !annotated.equals(className)) {
            return List.of(Causes.invalid("annotations." + CLASS_ANNOTATION, annotated,
                    "must match `ingressClassName` when both are specified"));
        }
        return List.of();
    }

    /** ValidateIngressStatusUpdate: load-balancer points are IPs or DNS names (not IPs). */
    @Override
    public List<StatusCause> validateStatusUpdate(Ingress old, Ingress updated) {
        List<StatusCause> causes = new ArrayList<>();
        IngressStatus status = updated.getStatus();
        List<IngressLoadBalancerIngress> points = status == null || status.getLoadBalancer() == null
                || status.getLoadBalancer().getIngress() == null ? List.of() : status.getLoadBalancer().getIngress();
        for (int i = 0; i < points.size(); i++) {
            String f = "status.loadBalancer.ingress[" + i + "]";
            IngressLoadBalancerIngress point = points.get(i);
            if (point.getIp() != null && !point.getIp().isEmpty()) {
                Formats.ip(f + ".ip", point.getIp(), causes);
            }
            String hostname = point.getHostname();
            if (hostname != null && !hostname.isEmpty()) {
                Formats.subdomain(hostname).forEach(m -> causes.add(Causes.invalid(f + ".hostname", hostname, m)));
                if (Formats.parseIp(hostname).isPresent()) {
                    causes.add(Causes.invalid(f + ".hostname", hostname, "must be a DNS name, not an IP address"));
                }
            }
        }
        return causes;
    }

    private static void rule(String f, IngressRule rule, List<StatusCause> causes) {
        String host = rule.getHost();
        if (host != null && !host.isEmpty()) {
            if (Formats.parseIp(host).isPresent()) {
                causes.add(Causes.invalid(f + ".host", host, "must be a DNS name, not an IP address"));
            }
            hostErrors(host).forEach(m -> causes.add(Causes.invalid(f + ".host", host, m)));
        }
        HTTPIngressRuleValue http = rule.getHttp();
        if (http == null) {
            return;
        }
        List<HTTPIngressPath> paths = http.getPaths() == null ? List.of() : http.getPaths();
        if (paths.isEmpty()) {
            causes.add(Causes.required(f + ".http.paths"));
        }
        for (int i = 0; i < paths.size(); i++) {
            path(f + ".http.paths[" + i + "]", paths.get(i), causes);
        }
    }

    /** A host or a TLS host: a DNS subdomain, or {@code *.} and one (IsWildcardDNS1123Subdomain). */
    static List<String> hostErrors(String host) {
        if (!host.contains("*")) {
            return Formats.subdomain(host);
        }
        List<String> errs = new ArrayList<>();
        if (host.length() > 253) {
            errs.add("must be no more than 253 characters");
        }
        if (!WILDCARD.matcher(host).matches()) {
            errs.add("a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must "
                    + "consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character "
                    + "(e.g. '*.example.com', regex used for validation is "
                    + "'\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
        }
        return errs;
    }

    private static void path(String f, HTTPIngressPath path, List<StatusCause> causes) {
        String type = path.getPathType();
        String value = path.getPath() == null ? "" : path.getPath();
        if (type == null) {
            causes.add(Causes.required(f + ".pathType", "pathType must be specified"));
            return;
        }
        switch (type) {
            case "Exact", "Prefix" -> {
                if (!value.startsWith("/")) {
                    causes.add(Causes.invalid(f + ".path", value, "must be an absolute path"));
                }
                for (String sequence : INVALID_SEQUENCES) {
                    if (value.contains(sequence)) {
                        causes.add(Causes.invalid(f + ".path", value, "must not contain '" + sequence + "'"));
                    }
                }
                for (String suffix : INVALID_SUFFIXES) {
                    if (value.endsWith(suffix)) {
                        causes.add(Causes.invalid(f + ".path", value, "cannot end with '" + suffix + "'"));
                    }
                }
            }
            case "ImplementationSpecific" -> {
                if (!value.isEmpty() && !value.startsWith("/")) {
                    causes.add(Causes.invalid(f + ".path", value, "must be an absolute path"));
                }
            }
            default -> causes.add(Causes.notSupported(f + ".pathType", type, PATH_TYPES));
        }
        backend(f + ".backend", path.getBackend() == null ? new IngressBackend() : path.getBackend(), causes);
    }

    /** validateIngressBackend. */
    private static void backend(String f, IngressBackend backend, List<StatusCause> causes) {
        IngressServiceBackend service = backend.getService();
        TypedLocalObjectReference resource = backend.getResource();
        if (service != null && resource != null) {
            causes.add(Causes.invalid(f, "", "cannot set both resource and service backends"));
        } else if (resource != null) {
            typedReference(f + ".resource", resource, causes);
        } else if (service != null) {
            String name = service.getName();
            if (name == null || name.isEmpty()) {
                causes.add(Causes.required(f + ".service.name"));
            } else {
                Names.dns1035Label(f + ".service.name", name).ifPresent(causes::add);
            }
            ServiceBackendPort port = service.getPort() == null ? new ServiceBackendPort() : service.getPort();
            boolean byName = port.getName() != null && !port.getName().isEmpty();
            boolean byNumber = port.getNumber() != null && port.getNumber() != 0;
            if (byName && byNumber) {
                causes.add(Causes.invalid(f, "", "cannot set both port name & port number"));
            } else if (byName) {
                ServiceValidation.portName(port.getName()).forEach(m ->
                        causes.add(Causes.invalid(f + ".service.port.name", port.getName(), m)));
            } else if (byNumber) {
                if (port.getNumber() < 1 || port.getNumber() > 65535) {
                    causes.add(Causes.invalid(f + ".service.port.number", port.getNumber(), ServiceValidation.PORT_RANGE));
                }
            } else {
                causes.add(Causes.required(f, "port name or number is required"));
            }
        } else {
            causes.add(Causes.invalid(f, "", "resource or service backend is required"));
        }
    }

    /** validateIngressTypedLocalObjectReference. */
    private static void typedReference(String f, TypedLocalObjectReference ref, List<StatusCause> causes) {
        if (ref.getApiGroup() != null) {
            Formats.subdomain(ref.getApiGroup()).forEach(m -> causes.add(Causes.invalid(f + ".apiGroup", ref.getApiGroup(), m)));
        }
        pathSegment(f + ".kind", ref.getKind(), causes);
        pathSegment(f + ".name", ref.getName(), causes);
    }

    /** Required, and IsValidPathSegmentName: not {@code .} or {@code ..}, no {@code /} or {@code %}. */
    static void pathSegment(String f, String value, List<StatusCause> causes) {
        if (value == null || value.isEmpty()) {
            causes.add(Causes.required(f));
        } else if (value.equals(".") || value.equals("..")) {
            causes.add(Causes.invalid(f, value, "may not be '" + value + "'"));
        } else {
            for (String illegal : List.of("/", "%")) {
                if (value.contains(illegal)) {
                    causes.add(Causes.invalid(f, value, "may not contain '" + illegal + "'"));
                }
            }
        }
    }

    private static void tls(List<IngressTLS> tls, List<StatusCause> causes) {
        if (tls == null) {
            return;
        }
        for (int i = 0; i < tls.size(); i++) {
            String f = "spec.tls[" + i + "]";
            IngressTLS t = tls.get(i);
            List<String> hosts = t.getHosts() == null ? List.of() : t.getHosts();
            for (int h = 0; h < hosts.size(); h++) {
                String host = hosts.get(h);
                String hf = f + ".hosts[" + h + "]";
                hostErrors(host).forEach(m -> causes.add(Causes.invalid(hf, host, m)));
            }
            String secret = t.getSecretName();
            if (secret != null && !secret.isEmpty()) {
                Formats.subdomain(secret).forEach(m -> causes.add(Causes.invalid(f + ".secretName", secret, m)));
            }
        }
    }
}
