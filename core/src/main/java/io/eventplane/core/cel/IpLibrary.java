package io.eventplane.core.cel;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;
import java.util.function.Predicate;

/**
 * Kubernetes' IP library ({@code kubernetes.net.ip}, 1.30+): {@code ip()}, {@code isIP()}, {@code ip.isCanonical()},
 * {@code string(ip)} and the address's {@code family/isUnspecified/isLoopback/isLinkLocalMulticast/
 * isLinkLocalUnicast/isGlobalUnicast}. Zones and IPv4-mapped IPv6 addresses are refused, as Kubernetes refuses them.
 */
final class IpLibrary extends KubernetesLibrary {
    /** Kubernetes' name for the type (apiservercel.IPType). */
    static final OpaqueType IP = OpaqueType.create("net.IP");

    @Override
    List<CelFunctionDecl> functions() {
        return List.of(
                newFunctionDeclaration("ip", newGlobalOverload("string_to_ip", IP, SimpleType.STRING)),
                newFunctionDeclaration("isIP", newGlobalOverload("is_ip", SimpleType.BOOL, SimpleType.STRING)),
                newFunctionDeclaration("ip.isCanonical",
                        newGlobalOverload("ip_is_canonical", SimpleType.BOOL, SimpleType.STRING)),
                newFunctionDeclaration("string", newGlobalOverload("ip_to_string", SimpleType.STRING, IP)),
                member("family", "ip_family", SimpleType.INT),
                member("isUnspecified", "ip_is_unspecified", SimpleType.BOOL),
                member("isLoopback", "ip_is_loopback", SimpleType.BOOL),
                member("isLinkLocalMulticast", "ip_is_link_local_multicast", SimpleType.BOOL),
                member("isLinkLocalUnicast", "ip_is_link_local_unicast", SimpleType.BOOL),
                member("isGlobalUnicast", "ip_is_global_unicast", SimpleType.BOOL));
    }

    private static CelFunctionDecl member(String name, String overload, CelType result) {
        return newFunctionDeclaration(name, newMemberOverload(overload, result, IP));
    }

    @Override
    List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("string_to_ip", String.class, IpLibrary::ip),
                CelFunctionBinding.from("is_ip", String.class, IpLibrary::isIp),
                CelFunctionBinding.from("ip_is_canonical", String.class, s -> ip(s).toString().equals(s)),
                CelFunctionBinding.from("ip_to_string", IpAddress.class, IpAddress::toString),
                CelFunctionBinding.from("ip_family", IpAddress.class, a -> a.v4() ? 4L : 6L),
                test("ip_is_unspecified", IpAddress::isUnspecified),
                test("ip_is_loopback", IpAddress::isLoopback),
                test("ip_is_link_local_multicast", IpAddress::isLinkLocalMulticast),
                test("ip_is_link_local_unicast", IpAddress::isLinkLocalUnicast),
                test("ip_is_global_unicast", IpAddress::isGlobalUnicast));
    }

    private static CelFunctionBinding test(String overload, Predicate<IpAddress> predicate) {
        return CelFunctionBinding.from(overload, IpAddress.class, predicate::test);
    }

    /** An address as Kubernetes' ip() takes it, or the error Kubernetes gives. */
    static IpAddress ip(String s) throws CelEvaluationException {
        IpAddress address;
        try {
            address = IpAddress.parse(s);
        } catch (IpAddress.Invalid e) {
            throw error("IP Address %s parse error during conversion from string: %s", quote(s), e.getMessage());
        }
        if (!address.zone().isEmpty()) {
            throw error("IP address %s with zone value is not allowed", quote(s));
        }
        if (address.is4In6()) {
            throw error("IPv4-mapped IPv6 address %s is not allowed", quote(s));
        }
        return address;
    }

    private static boolean isIp(String s) {
        try {
            ip(s);
            return true;
        } catch (CelEvaluationException e) {
            return false;
        }
    }
}
