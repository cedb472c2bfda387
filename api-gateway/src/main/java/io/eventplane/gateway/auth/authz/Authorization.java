package io.eventplane.gateway.auth.authz;

import io.eventplane.client.ClusterView;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.gateway.auth.UserInfo;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.KubeStatus;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.rbac.PolicyRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The API's authorization chain, as kube-apiserver runs {@code --authorization-mode=Node,RBAC}: members of
 * {@code system:masters} and the health paths ({@code --authorization-always-allow-paths}: {@code /healthz},
 * {@code /readyz}, {@code /livez}) are always allowed, then the Node authorizer, then RBAC; the first allow or deny decides, and
 * a refusal's message carries the reasons the authorizers gave. {@code EVENTPLANE_AUTHORIZATION_MODE=AlwaysAllow}
 * switches it off.
 */
public final class Authorization {
    public static final String MODE_SETTING = "EVENTPLANE_AUTHORIZATION_MODE";
    /**
     * kube-apiserver's default {@code --authorization-always-allow-paths}: health checks answer anyone, even before the
     * bootstrap ClusterRoles (system:public-info-viewer) are in the view; a script polling {@code /readyz} right after
     * start got 403 until then.
     */
    private static final List<String> ALWAYS_ALLOW_PATHS = List.of("/healthz", "/readyz", "/livez");

    private final boolean enabled;
    private final NodeAuthorizer node;
    private final RbacAuthorizer rbac;

    public Authorization(ClusterView view, boolean enabled) {
        this.enabled = enabled;
        this.node = new NodeAuthorizer(view);
        this.rbac = new RbacAuthorizer(view);
    }

    /** The mode from {@value #MODE_SETTING}: {@code Node,RBAC} (the default) or {@code AlwaysAllow}. */
    public static boolean enabledBySetting() {
        String mode = EventplaneConfig.setting(MODE_SETTING, "Node,RBAC").toLowerCase(Locale.ROOT);
        return !mode.equals("alwaysallow");
    }

    public boolean enabled() {
        return enabled;
    }

    /** Exactly a health path (as upstream's default, {@code /readyz/etcd} is not one), for a non-resource request. */
    static boolean alwaysAllowedPath(Attributes a) {
        if (a.resourceRequest() || a.path() == null) {
            return false;
        }
        return ALWAYS_ALLOW_PATHS.contains(a.path());
    }

    /** To be called for every change the view applies (keeps RBAC's index current). */
    public void changed(ObjectChanged change) {
        rbac.changed(change);
    }

    public Decision decide(Attributes a) {
        if (!enabled || a.user().inGroup(UserInfo.MASTERS) || alwaysAllowedPath(a)) {
            return Decision.allow("");
        }
        List<String> reasons = new ArrayList<>();
        for (Authorizer authorizer : List.of(node, rbac)) {
            Decision d = authorizer.authorize(a);
            if (d.outcome() != Decision.Outcome.NO_OPINION) {
                return d;
            }
            if (!d.reason().isEmpty()) {
                reasons.add(d.reason());
            }
        }
        return Decision.noOpinion(String.join(", ", reasons));
    }

    /**
     * Whether {@code requester} may impersonate, as kube-apiserver's impersonation filter asks its authorizer: the verb
     * {@code impersonate} on {@code users}, {@code groups}, {@code serviceaccounts} (in the account's namespace), or in
     * {@code authentication.k8s.io} on {@code uids} and {@code userextras/<key>}, named by the impersonated value.
     */
    public boolean mayImpersonate(UserInfo requester, String resource, String namespace, String name) {
        String group = "";
        String plural = resource;
        String subresource = "";
        if (resource.equals("uids")) {
            group = "authentication.k8s.io";
        } else if (resource.startsWith("userextras/")) {
            group = "authentication.k8s.io";
            plural = "userextras";
            subresource = resource.substring("userextras/".length());
        }
        return decide(Attributes.resource(requester, "impersonate", group, plural, subresource, namespace, name))
                .allowed();
    }

    /** @throws ApiException Kubernetes' 403 when the request is not allowed */
    public void check(Attributes a) {
        Decision d = decide(a);
        if (!d.allowed()) {
            throw new ApiException(forbidden(a, d));
        }
    }

    /**
     * The checks of a create or update that need the object: RBAC's escalation prevention for roles and bindings, and
     * NodeRestriction for what a node creates.
     *
     * @param create whether the write creates the object
     * @throws ApiException Kubernetes' 403
     */
    public void checkWrite(UserInfo user, boolean create, io.eventplane.core.kinds.KindInfo kind, String namespace,
                           String name, org.apache.avro.specific.SpecificRecord object) {
        if (!enabled) {
            return;
        }
        if (Escalation.applies(kind)) {
            Escalation.check(this, user, kind, namespace, name, object);
        }
        String node = create ? NodeAuthorizer.nodeName(user) : null;
        String refusal = node == null ? null : NodeAuthorizer.refuseCreate(node, kind.kind(), object);
        if (refusal != null) {
            Attributes a = Attributes.resource(user, "create", kind.group(), kind.plural(), "", namespace, name);
            throw new ApiException(forbidden(a, Decision.refuse(refusal)));
        }
    }

    /** A role's rules: a Role in {@code namespace}, or a ClusterRole when it is empty. */
    List<PolicyRule> roleRules(String namespace, String name) {
        return rbac.roleRules(namespace, name);
    }

    /** The rules RBAC gives {@code user} in {@code namespace} (a rules review). */
    public List<PolicyRule> rulesFor(UserInfo user, String namespace) {
        return rbac.rulesFor(user, namespace);
    }

    /**
     * Kubernetes' Forbidden for a refused request (responsewriters.Forbidden, or an admission refusal):
     * {@code pods "x" is forbidden: User "u" cannot get resource "pods" in API group "" in the namespace "ns"}.
     */
    public static KubeStatus forbidden(Attributes a, Decision d) {
        String why;
        if (d.admission() != null) {
            why = d.admission();
        } else {
            why = message(a) + (d.reason().isEmpty() ? "" : ": " + d.reason());
        }
        String qualified = !a.resourceRequest() ? "" : a.apiGroup().isEmpty() ? a.resource()
                : a.resource() + "." + a.apiGroup();
        String message;
        if (qualified.isEmpty()) {
            message = "forbidden: " + why;
        } else if (a.name().isEmpty()) {
            message = qualified + " is forbidden: " + why;
        } else {
            message = qualified + " \"" + a.name() + "\" is forbidden: " + why;
        }
        KubeStatus.Details details = new KubeStatus.Details(a.name().isEmpty() ? null : a.name(),
                a.apiGroup().isEmpty() ? null : a.apiGroup(), a.resource().isEmpty() ? null : a.resource(), List.of());
        return new KubeStatus(403, "Forbidden", message, details);
    }

    /** forbiddenMessage: what the user cannot do, at which scope. */
    static String message(Attributes a) {
        String user = a.user() == null ? "" : a.user().name();
        if (!a.resourceRequest()) {
            return "User \"" + user + "\" cannot " + a.verb() + " path \"" + a.path() + "\"";
        }
        String scope = a.namespace().isEmpty() ? " at the cluster scope" : " in the namespace \"" + a.namespace() + "\"";
        return "User \"" + user + "\" cannot " + a.verb() + " resource \"" + a.combinedResource() + "\" in API group \""
                + a.apiGroup() + "\"" + scope;
    }
}
