package io.eventplane.core.decide;

import io.eventplane.core.meta.IpAddresses;
import io.eventplane.log.StatusCause;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.networking.IPBlock;
import io.eventplane.model.networking.NetworkPolicy;
import io.eventplane.model.networking.NetworkPolicyEgressRule;
import io.eventplane.model.networking.NetworkPolicyIngressRule;
import io.eventplane.model.networking.NetworkPolicyPeer;
import io.eventplane.model.networking.NetworkPolicyPort;
import io.eventplane.model.networking.NetworkPolicySpec;
import java.math.BigInteger;
import java.net.InetAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * networking.k8s.io/v1 NetworkPolicy (SetDefaults_NetworkPolicy, ValidateNetworkPolicy): ports default to TCP;
 * policyTypes default to Ingress, plus Egress when there are egress rules; podSelector is always present (empty
 * selects every pod); ports are numbers (with an optional endPort range) or names; a peer is pods and/or namespaces,
 * or an ipBlock alone, whose except CIDRs are strict subsets of its cidr.
 */
final class NetworkPolicyRules implements KindRules<NetworkPolicy> {
    static final List<String> PROTOCOLS = List.of("TCP", "UDP", "SCTP");
    static final List<String> POLICY_TYPES = List.of("Ingress", "Egress");

    @Override
    public NetworkPolicy defaults(NetworkPolicy policy) {
        NetworkPolicySpec spec = policy.getSpec() == null ? new NetworkPolicySpec() : policy.getSpec();
        NetworkPolicySpec.Builder out = NetworkPolicySpec.newBuilder(spec);
        if (spec.getPodSelector() == null) {
            out.setPodSelector(new LabelSelector());
        }
        if (spec.getIngress() != null) {
            List<NetworkPolicyIngressRule> rules = new ArrayList<>();
            for (NetworkPolicyIngressRule r : spec.getIngress()) {
                rules.add(NetworkPolicyIngressRule.newBuilder(r).setPorts(tcpByDefault(r.getPorts())).build());
            }
            out.setIngress(rules);
        }
        if (spec.getEgress() != null) {
            List<NetworkPolicyEgressRule> rules = new ArrayList<>();
            for (NetworkPolicyEgressRule r : spec.getEgress()) {
                rules.add(NetworkPolicyEgressRule.newBuilder(r).setPorts(tcpByDefault(r.getPorts())).build());
            }
            out.setEgress(rules);
        }
        if (spec.getPolicyTypes() == null || spec.getPolicyTypes().isEmpty()) {
            boolean egress = spec.getEgress() != null && !spec.getEgress().isEmpty();
            out.setPolicyTypes(egress ? POLICY_TYPES : List.of("Ingress"));
        }
        return NetworkPolicy.newBuilder(policy).setSpec(out.build()).build();
    }

    private static List<NetworkPolicyPort> tcpByDefault(List<NetworkPolicyPort> ports) {
        if (ports == null) {
            return null;
        }
        List<NetworkPolicyPort> out = new ArrayList<>();
        for (NetworkPolicyPort p : ports) {
            out.add(p.getProtocol() != null ? p : NetworkPolicyPort.newBuilder(p).setProtocol("TCP").build());
        }
        return out;
    }

    @Override
    public NetworkPolicy prepareForCreate(NetworkPolicy policy, Instant now) {
        return policy;
    }

    @Override
    public List<StatusCause> validate(NetworkPolicy policy) {
        List<StatusCause> causes = new ArrayList<>();
        NetworkPolicySpec spec = policy.getSpec() == null ? new NetworkPolicySpec() : policy.getSpec();
        selector("spec.podSelector", spec.getPodSelector(), causes);
        List<NetworkPolicyIngressRule> ingress = spec.getIngress() == null ? List.of() : spec.getIngress();
        for (int i = 0; i < ingress.size(); i++) {
            String f = "spec.ingress[" + i + "]";
            ports(f, ingress.get(i).getPorts(), causes);
            peers(f + ".from", ingress.get(i).getFrom(), causes);
        }
        List<NetworkPolicyEgressRule> egress = spec.getEgress() == null ? List.of() : spec.getEgress();
        for (int i = 0; i < egress.size(); i++) {
            String f = "spec.egress[" + i + "]";
            ports(f, egress.get(i).getPorts(), causes);
            peers(f + ".to", egress.get(i).getTo(), causes);
        }
        List<String> types = spec.getPolicyTypes() == null ? List.of() : spec.getPolicyTypes();
        if (types.size() > POLICY_TYPES.size()) {
            causes.add(Causes.invalidShown("spec.policyTypes", goPolicyTypes(types), "may not specify more than two policyTypes"));
            return causes;
        }
        for (int i = 0; i < types.size(); i++) {
            if (!POLICY_TYPES.contains(types.get(i))) {
                causes.add(Causes.notSupported("spec.policyTypes[" + i + "]", types.get(i), POLICY_TYPES));
            }
        }
        return causes;
    }

    private static String goPolicyTypes(List<String> types) {
        StringBuilder s = new StringBuilder("[]networking.PolicyType{");
        for (int i = 0; i < types.size(); i++) {
            s.append(i == 0 ? "" : ", ").append('"').append(types.get(i)).append('"');
        }
        return s.append('}').toString();
    }

    /** ValidateLabelSelector: matchLabels as labels, matchExpressions' keys, operators and values. */
    private static void selector(String f, LabelSelector selector, List<StatusCause> causes) {
        if (selector == null) {
            return;
        }
        Formats.labels(f + ".matchLabels", selector.getMatchLabels(), causes);
        Workloads.wellFormed(f, selector, causes);
        if (selector.getMatchExpressions() != null) {
            for (int i = 0; i < selector.getMatchExpressions().size(); i++) {
                String key = selector.getMatchExpressions().get(i).getKey();
                if (key != null && !key.isEmpty()) {
                    Formats.qualifiedName(f + ".matchExpressions[" + i + "].key", key, causes);
                }
            }
        }
    }

    /** ValidateNetworkPolicyPort, for each port of a rule. */
    private static void ports(String rule, List<NetworkPolicyPort> ports, List<StatusCause> causes) {
        if (ports == null) {
            return;
        }
        for (int i = 0; i < ports.size(); i++) {
            String f = rule + ".ports[" + i + "]";
            NetworkPolicyPort p = ports.get(i);
            if (p.getProtocol() != null && !PROTOCOLS.contains(p.getProtocol())) {
                causes.add(Causes.notSupported(f + ".protocol", p.getProtocol(), PROTOCOLS));
            }
            Object port = p.getPort();
            Integer endPort = p.getEndPort();
            if (port instanceof Integer n) {
                if (n < 1 || n > 65535) {
                    causes.add(Causes.invalid(f + ".port", n, ServiceValidation.PORT_RANGE));
                }
                if (endPort != null) {
                    if (endPort < n) {
                        causes.add(Causes.invalid(f + ".endPort", endPort, "must be greater than or equal to `port`"));
                    }
                    if (endPort < 1 || endPort > 65535) {
                        causes.add(Causes.invalid(f + ".endPort", endPort, ServiceValidation.PORT_RANGE));
                    }
                }
            } else if (port != null) {
                if (endPort != null) {
                    causes.add(Causes.invalid(f + ".endPort", endPort, "may not be specified when `port` is non-numeric"));
                }
                String name = port.toString();
                ServiceValidation.portName(name).forEach(m -> causes.add(Causes.invalid(f + ".port", name, m)));
            } else if (endPort != null) {
                causes.add(Causes.invalid(f + ".endPort", endPort, "may not be specified when `port` is not specified"));
            }
        }
    }

    /** ValidateNetworkPolicyPeer, for each peer of a rule's from or to. */
    private static void peers(String list, List<NetworkPolicyPeer> peers, List<StatusCause> causes) {
        if (peers == null) {
            return;
        }
        for (int i = 0; i < peers.size(); i++) {
            String f = list + "[" + i + "]";
            NetworkPolicyPeer peer = peers.get(i);
            int kinds = 0;
            if (peer.getPodSelector() != null) {
                kinds++;
                selector(f + ".podSelector", peer.getPodSelector(), causes);
            }
            if (peer.getNamespaceSelector() != null) {
                kinds++;
                selector(f + ".namespaceSelector", peer.getNamespaceSelector(), causes);
            }
            if (peer.getIpBlock() != null) {
                kinds++;
                ipBlock(f + ".ipBlock", peer.getIpBlock(), causes);
            }
            if (kinds == 0) {
                causes.add(Causes.required(f, "must specify a peer"));
            } else if (kinds > 1 && peer.getIpBlock() != null) {
                causes.add(Causes.forbidden(f, "may not specify both ipBlock and another peer"));
            }
        }
    }

    /** ValidateIPBlock: cidr required and valid; each except valid and strictly inside it. */
    private static void ipBlock(String f, IPBlock block, List<StatusCause> causes) {
        String cidr = block.getCidr();
        if (cidr == null || cidr.isEmpty()) {
            causes.add(Causes.required(f + ".cidr"));
            return;
        }
        int before = causes.size();
        Formats.cidr(f + ".cidr", cidr, causes);
        Optional<Network> network = causes.size() == before ? Network.parse(cidr) : Optional.empty();
        if (network.isEmpty()) {
            return;
        }
        List<String> except = block.getExcept() == null ? List.of() : block.getExcept();
        for (int i = 0; i < except.size(); i++) {
            String ef = f + ".except[" + i + "]";
            String value = except.get(i);
            int was = causes.size();
            Formats.cidr(ef, value, causes);
            Optional<Network> inner = causes.size() == was ? Network.parse(value) : Optional.empty();
            if (inner.isPresent() && !network.get().strictlyContains(inner.get())) {
                causes.add(Causes.invalid(ef, value, "must be a strict subset of `cidr`"));
            }
        }
    }

    /** A CIDR as Go's ParseCIDR reads it: the masked network address and the prefix length. */
    private record Network(BigInteger base, int bits, int width) {
        static Optional<Network> parse(String cidr) {
            int slash = cidr.indexOf('/');
            Optional<InetAddress> ip = IpAddresses.parse(cidr.substring(0, slash));
            if (ip.isEmpty()) {
                return Optional.empty();
            }
            byte[] bytes = ip.get().getAddress();
            int width = bytes.length * 8;
            int bits = Integer.parseInt(cidr.substring(slash + 1));
            return Optional.of(new Network(masked(new BigInteger(1, bytes), bits, width), bits, width));
        }

        private static BigInteger masked(BigInteger address, int bits, int width) {
            return address.shiftRight(width - bits).shiftLeft(width - bits);
        }

        /** {@code cidrIPNet.Contains(except.IP) && cidrMaskLen < exceptMaskLen}. */
        boolean strictlyContains(Network inner) {
            return width == inner.width && bits < inner.bits && masked(inner.base, bits, width).equals(base);
        }
    }
}
