package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import io.eventplane.model.networking.IngressClass;
import io.eventplane.model.networking.IngressClassParametersReference;
import io.eventplane.model.networking.IngressClassSpec;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * networking.k8s.io/v1 IngressClass: parameters default to the Cluster scope; the controller is a required,
 * immutable domain-prefixed path of at most 250 bytes; parameters name a kind and a name, and a namespace exactly
 * when their scope is Namespace (ValidateIngressClass, SetDefaults_IngressClass).
 */
final class IngressClassRules implements KindRules<IngressClass> {
    static final List<String> SCOPES = List.of("Cluster", "Namespace");
    private static final int MAX_CONTROLLER = 250;
    private static final String HTTP_PATH = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
    private static final Pattern HTTP_PATH_PATTERN = Pattern.compile(HTTP_PATH);

    @Override
    public IngressClass defaults(IngressClass ingressClass) {
        IngressClassSpec spec = ingressClass.getSpec();
        if (spec == null || spec.getParameters() == null || spec.getParameters().getScope() != null) {
            return ingressClass;
        }
        return IngressClass.newBuilder(ingressClass).setSpec(IngressClassSpec.newBuilder(spec).setParameters(
                IngressClassParametersReference.newBuilder(spec.getParameters()).setScope("Cluster").build()).build())
                .build();
    }

    @Override
    public IngressClass prepareForCreate(IngressClass ingressClass, Instant now) {
        return ingressClass;
    }

    @Override
    public List<StatusCause> validate(IngressClass ingressClass) {
        List<StatusCause> causes = new ArrayList<>();
        IngressClassSpec spec = ingressClass.getSpec() == null ? new IngressClassSpec() : ingressClass.getSpec();
        String controller = spec.getController();
        if (controller == null || controller.isEmpty()) {
            causes.add(Causes.required("spec.controller"));
        } else {
            if (controller.getBytes(StandardCharsets.UTF_8).length > MAX_CONTROLLER) {
                causes.add(ConfigMapRules.tooLong("spec.controller", MAX_CONTROLLER));
            }
            domainPrefixedPath("spec.controller", controller, causes);
        }
        parameters("spec.parameters", spec.getParameters(), causes);
        return causes;
    }

    @Override
    public List<StatusCause> validateUpdate(IngressClass old, IngressClass updated) {
        String before = old.getSpec() == null ? null : old.getSpec().getController();
        String after = updated.getSpec() == null ? null : updated.getSpec().getController();
        if (!Objects.equals(before, after)) {
            return List.of(Causes.invalid("spec.controller", after == null ? "" : after, "field is immutable"));
        }
        return List.of();
    }

    /** IsDomainPrefixedPath: {@code acme.io/ingress-controller}. */
    static void domainPrefixedPath(String f, String value, List<StatusCause> causes) {
        String[] segments = value.split("/", 2);
        if (segments.length != 2 || segments[0].isEmpty() || segments[1].isEmpty()) {
            causes.add(Causes.invalid(f, value, "must be a domain-prefixed path (such as \"acme.io/foo\")"));
            return;
        }
        Formats.subdomain(segments[0]).forEach(m -> causes.add(Causes.invalid(f, segments[0], m)));
        if (!HTTP_PATH_PATTERN.matcher(segments[1]).matches()) {
            causes.add(Causes.invalid(f, segments[1], "Invalid path (regex used for validation is '" + HTTP_PATH + "')"));
        }
    }

    /** validateIngressClassParametersReference. */
    private static void parameters(String f, IngressClassParametersReference p, List<StatusCause> causes) {
        if (p == null) {
            return;
        }
        if (p.getApiGroup() != null) {
            Formats.subdomain(p.getApiGroup()).forEach(m -> causes.add(Causes.invalid(f + ".apiGroup", p.getApiGroup(), m)));
        }
        IngressRules.pathSegment(f + ".kind", p.getKind(), causes);
        IngressRules.pathSegment(f + ".name", p.getName(), causes);
        String scope = p.getScope();
        if (scope == null) {
            causes.add(Causes.required(f + ".scope"));
            return;
        }
        if (!SCOPES.contains(scope)) {
            causes.add(Causes.notSupported(f + ".scope", scope, SCOPES));
        } else if (scope.equals("Namespace")) {
            if (p.getNamespace() == null) {
                causes.add(Causes.required(f + ".namespace", "`parameters.scope` is set to 'Namespace'"));
            } else {
                Formats.label(p.getNamespace()).forEach(m -> causes.add(Causes.invalid(f + ".namespace", p.getNamespace(), m)));
            }
        } else if (p.getNamespace() != null) {
            causes.add(Causes.forbidden(f + ".namespace", "`parameters.scope` is set to 'Cluster'"));
        }
    }
}
