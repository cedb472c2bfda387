package io.eventplane.core.decide;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The name formats of Kubernetes' CEL format library (format.dns1123Label() and the rest), worded by {@link Formats}
 * as apimachinery's validation words them. The "Prefix" variants accept a trailing dash, as a generateName does.
 */
final class CelNameFormats {
    private CelNameFormats() {
    }

    static Map<String, Function<String, List<String>>> all() {
        Map<String, Function<String, List<String>>> out = new LinkedHashMap<>();
        out.put("dns1123Label", Formats::label);
        out.put("dns1123Subdomain", Formats::subdomain);
        out.put("dns1035Label", Formats::dns1035Label);
        out.put("qualifiedName", Formats::qualifiedName);
        out.put("dns1123LabelPrefix", s -> Formats.label(maskTrailingDash(s)));
        out.put("dns1123SubdomainPrefix", s -> Formats.subdomain(maskTrailingDash(s)));
        out.put("dns1035LabelPrefix", s -> Formats.dns1035Label(maskTrailingDash(s)));
        out.put("labelValue", Formats::labelValue);
        return out;
    }

    /** apimachinery's maskTrailingDash, character for character (it drops two characters and appends 'a'). */
    private static String maskTrailingDash(String name) {
        return name.length() > 1 && name.endsWith("-") ? name.substring(0, name.length() - 2) + "a" : name;
    }
}
