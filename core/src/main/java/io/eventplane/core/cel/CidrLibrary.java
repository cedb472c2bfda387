package io.eventplane.core.cel;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;

/**
 * Kubernetes' CIDR library ({@code net.cidr}, 1.30+): {@code cidr()}, {@code isCIDR()}, {@code string(cidr)} and the
 * CIDR's {@code containsIP/containsCIDR} (an IP/CIDR or a string), {@code ip()}, {@code masked()},
 * {@code prefixLength()}. containsCIDR masks both sides, as Kubernetes does since 1.33 (kubernetes#130450).
 */
final class CidrLibrary extends KubernetesLibrary {
    /** Kubernetes' name for the type (apiservercel.CIDRType). */
    static final OpaqueType CIDR = OpaqueType.create("net.CIDR");

    @Override
    List<CelFunctionDecl> functions() {
        return List.of(
                newFunctionDeclaration("cidr", newGlobalOverload("string_to_cidr", CIDR, SimpleType.STRING)),
                newFunctionDeclaration("isCIDR", newGlobalOverload("is_cidr", SimpleType.BOOL, SimpleType.STRING)),
                newFunctionDeclaration("string", newGlobalOverload("cidr_to_string", SimpleType.STRING, CIDR)),
                newFunctionDeclaration("containsIP",
                        newMemberOverload("cidr_contains_ip_string", SimpleType.BOOL, CIDR, SimpleType.STRING),
                        newMemberOverload("cidr_contains_ip_ip", SimpleType.BOOL, CIDR, IpLibrary.IP)),
                newFunctionDeclaration("containsCIDR",
                        newMemberOverload("cidr_contains_cidr_string", SimpleType.BOOL, CIDR, SimpleType.STRING),
                        newMemberOverload("cidr_contains_cidr", SimpleType.BOOL, CIDR, CIDR)),
                newFunctionDeclaration("ip", newMemberOverload("cidr_ip", IpLibrary.IP, CIDR)),
                newFunctionDeclaration("masked", newMemberOverload("cidr_masked", CIDR, CIDR)),
                newFunctionDeclaration("prefixLength", newMemberOverload("cidr_prefix_length", SimpleType.INT, CIDR)));
    }

    @Override
    List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("string_to_cidr", String.class, CidrLibrary::cidr),
                CelFunctionBinding.from("is_cidr", String.class, CidrLibrary::isCidr),
                CelFunctionBinding.from("cidr_to_string", IpPrefix.class, IpPrefix::toString),
                CelFunctionBinding.from("cidr_contains_ip_string", IpPrefix.class, String.class,
                        (c, s) -> c.contains(IpLibrary.ip(s))),
                CelFunctionBinding.from("cidr_contains_ip_ip", IpPrefix.class, IpAddress.class, IpPrefix::contains),
                CelFunctionBinding.from("cidr_contains_cidr_string", IpPrefix.class, String.class,
                        (c, s) -> c.contains(cidr(s))),
                CelFunctionBinding.from("cidr_contains_cidr", IpPrefix.class, IpPrefix.class, IpPrefix::contains),
                CelFunctionBinding.from("cidr_ip", IpPrefix.class, IpPrefix::address),
                CelFunctionBinding.from("cidr_masked", IpPrefix.class, IpPrefix::masked),
                CelFunctionBinding.from("cidr_prefix_length", IpPrefix.class, c -> (long) c.bits()));
    }

    /** Kubernetes' message says "network address parse error during conversion from string" twice; so does this. */
    private static IpPrefix cidr(String s) throws CelEvaluationException {
        String prefix = "network address parse error during conversion from string: ";
        IpPrefix parsed;
        try {
            parsed = IpPrefix.parse(s);
        } catch (IpPrefix.Invalid e) {
            throw error("%s%s%s", prefix, prefix, e.getMessage());
        }
        if (parsed.address().is4In6()) {
            throw error("%sIPv4-mapped IPv6 address %s is not allowed", prefix, quote(s));
        }
        return parsed;
    }

    private static boolean isCidr(String s) {
        try {
            cidr(s);
            return true;
        } catch (CelEvaluationException e) {
            return false;
        }
    }
}
