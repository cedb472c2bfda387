package io.eventplane.core.decide;

import io.eventplane.core.meta.IpAddresses;
import io.eventplane.log.StatusCause;
import io.eventplane.model.networking.IPAddress;
import io.eventplane.model.networking.ParentReference;
import java.net.InetAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * networking.k8s.io/v1 IPAddress (ValidateIPAddress): named by an IP in canonical form, with a required, immutable
 * parent reference. Its creation is the lock on the IP: the writer refuses a second IPAddress of one name.
 */
final class IPAddressRules implements KindRules<IPAddress> {

    @Override
    public Optional<StatusCause> validateName(String name) {
        Optional<InetAddress> ip = Formats.parseIp(name);
        if (ip.isEmpty()) {
            return Optional.of(Causes.invalid("metadata.name", name == null ? "" : name, Formats.IP_MESSAGE));
        }
        String canonical = IpAddresses.canonical(ip.get());
        if (!canonical.equals(name)) {
            return Optional.of(Causes.invalid("metadata.name", name, "must be in canonical form (\"" + canonical + "\")"));
        }
        return Optional.empty();
    }

    @Override
    public IPAddress prepareForCreate(IPAddress address, Instant now) {
        return address;
    }

    @Override
    public List<StatusCause> validate(IPAddress address) {
        List<StatusCause> causes = new ArrayList<>();
        ParentReference ref = address.getSpec() == null ? null : address.getSpec().getParentRef();
        parentRef("spec.parentRef", ref, causes);
        return causes;
    }

    @Override
    public List<StatusCause> validateUpdate(IPAddress old, IPAddress updated) {
        ParentReference before = old.getSpec() == null ? null : old.getSpec().getParentRef();
        ParentReference after = updated.getSpec() == null ? null : updated.getSpec().getParentRef();
        if (Objects.equals(before, after)) {
            return List.of();
        }
        return List.of(Causes.invalidShown("spec.parentRef", goReference(after), "field is immutable"));
    }

    /** validateIPAddressParentReference: resource and name required, each a path segment; group a DNS subdomain. */
    static void parentRef(String f, ParentReference ref, List<StatusCause> causes) {
        if (ref == null) {
            causes.add(Causes.required(f));
            return;
        }
        if (!ServiceRules.blank(ref.getGroup())) {
            Formats.subdomain(ref.getGroup()).forEach(m -> causes.add(Causes.invalid(f + ".group", ref.getGroup(), m)));
        }
        pathSegment(f + ".resource", ref.getResource(), true, causes);
        pathSegment(f + ".name", ref.getName(), true, causes);
        pathSegment(f + ".namespace", ref.getNamespace(), false, causes);
    }

    /** IsPathSegmentName. */
    private static void pathSegment(String f, String value, boolean required, List<StatusCause> causes) {
        if (ServiceRules.blank(value)) {
            if (required) {
                causes.add(Causes.required(f));
            }
            return;
        }
        if (value.equals(".") || value.equals("..")) {
            causes.add(Causes.invalid(f, value, "may not be '" + value + "'"));
        }
        for (String illegal : List.of("/", "%")) {
            if (value.contains(illegal)) {
                causes.add(Causes.invalid(f, value, "may not contain '" + illegal + "'"));
            }
        }
    }

    /** Go's %#v of a *ParentReference. */
    static String goReference(ParentReference ref) {
        if (ref == null) {
            return "(*networking.ParentReference)(nil)";
        }
        return "&networking.ParentReference{Group:\"" + nz(ref.getGroup()) + "\", Resource:\"" + nz(ref.getResource())
                + "\", Namespace:\"" + nz(ref.getNamespace()) + "\", Name:\"" + nz(ref.getName()) + "\"}";
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
