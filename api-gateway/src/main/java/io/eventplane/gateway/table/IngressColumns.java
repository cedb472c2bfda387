package io.eventplane.gateway.table;

import static io.eventplane.gateway.table.KindColumns.age;
import static io.eventplane.gateway.table.KindColumns.name;
import static io.eventplane.gateway.table.KindColumns.nz;
import static io.eventplane.gateway.table.KindColumns.row;

import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.gateway.table.Columns.Column;
import io.eventplane.model.networking.Ingress;
import io.eventplane.model.networking.IngressClass;
import io.eventplane.model.networking.IngressClassParametersReference;
import io.eventplane.model.networking.IngressLoadBalancerIngress;
import io.eventplane.model.networking.IngressRule;
import io.eventplane.model.networking.IngressSpec;
import io.eventplane.model.networking.NetworkPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** kubectl's printers for Ingress, IngressClass and NetworkPolicy (pkg/printers/internalversion). */
final class IngressColumns {
    private static final int MAX_HOSTS = 3;
    private static final int LOAD_BALANCER_WIDTH = 16;

    private IngressColumns() {
    }

    /** NAME CLASS HOSTS ADDRESS PORTS AGE. */
    static final Columns INGRESS = new KindColumns(List.of(Column.nameColumn(),
            Column.of("Class", "The name of the IngressClass resource that should be used for additional configuration"),
            Column.of("Hosts", "Hosts that incoming requests are matched against before the ingress rule"),
            Column.of("Address", "Address is a list containing ingress points for the load-balancer"),
            Column.of("Ports", "Ports of TLS configurations that open"),
            Column.ageColumn()), (o, now) -> {
                Ingress ingress = (Ingress) o;
                IngressSpec spec = ingress.getSpec() == null ? new IngressSpec() : ingress.getSpec();
                String className = spec.getIngressClassName() == null ? "<none>" : spec.getIngressClassName();
                String ports = spec.getTls() != null && !spec.getTls().isEmpty() ? "80, 443" : "80";
                return row(name(ingress), className, hosts(spec.getRules()), address(ingress), ports, age(ingress, now));
            });

    /** NAME CONTROLLER PARAMETERS AGE; parameters as {@code Kind.group/name}. */
    static final Columns INGRESS_CLASS = new KindColumns(List.of(Column.nameColumn(),
            Column.of("Controller", "Controller that is responsible for handling this class"),
            Column.of("Parameters", "A reference to a resource with additional parameters"),
            Column.ageColumn()), (o, now) -> {
                IngressClass ic = (IngressClass) o;
                IngressClassParametersReference p = ic.getSpec() == null ? null : ic.getSpec().getParameters();
                String parameters = "<none>";
                if (p != null) {
                    parameters = nz(p.getKind()) + (p.getApiGroup() != null ? "." + p.getApiGroup() : "") + "/"
                            + nz(p.getName());
                }
                return row(name(ic), ic.getSpec() == null ? "" : nz(ic.getSpec().getController()), parameters, age(ic, now));
            });

    /** NAME POD-SELECTOR AGE. */
    static final Columns NETWORK_POLICY = new KindColumns(List.of(Column.nameColumn(),
            Column.of("Pod-Selector", "podSelector selects the pods to which this NetworkPolicy object applies. The "
                    + "array of rules is applied to any pods selected by this field. An empty selector matches all pods "
                    + "in the policy's namespace."),
            Column.ageColumn()), (o, now) -> {
                NetworkPolicy np = (NetworkPolicy) o;
                String selector = LabelSelectors.toString(np.getSpec() == null ? null : np.getSpec().getPodSelector());
                return row(name(np), Columns.orNone(selector), age(np, now));
            });

    /** formatHosts: the first three rules' hosts, {@code + N more...}, or {@code *} when none names one. */
    static String hosts(List<IngressRule> rules) {
        if (rules == null) {
            return "*";
        }
        List<String> list = new ArrayList<>();
        boolean more = false;
        for (IngressRule rule : rules) {
            if (list.size() == MAX_HOSTS) {
                more = true;
            }
            if (!more && rule.getHost() != null && !rule.getHost().isEmpty()) {
                list.add(rule.getHost());
            }
        }
        if (list.isEmpty()) {
            return "*";
        }
        String joined = String.join(",", list);
        return more ? joined + " + " + (rules.size() - MAX_HOSTS) + " more..." : joined;
    }

    /** ingressLoadBalancerStatusStringer: the points' IPs or hostnames, sorted, clipped to 16 characters. */
    private static String address(Ingress ingress) {
        TreeSet<String> points = new TreeSet<>();
        if (ingress.getStatus() != null && ingress.getStatus().getLoadBalancer() != null
                && ingress.getStatus().getLoadBalancer().getIngress() != null) {
            for (IngressLoadBalancerIngress point : ingress.getStatus().getLoadBalancer().getIngress()) {
                if (point.getIp() != null && !point.getIp().isEmpty()) {
                    points.add(point.getIp());
                } else if (point.getHostname() != null && !point.getHostname().isEmpty()) {
                    points.add(point.getHostname());
                }
            }
        }
        String joined = String.join(",", points);
        return joined.length() > LOAD_BALANCER_WIDTH ? joined.substring(0, LOAD_BALANCER_WIDTH - 3) + "..." : joined;
    }
}
