package io.eventplane.core.cel;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import com.google.common.collect.ImmutableList;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.ListType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.OptionalType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Kubernetes' format library ({@code format}, 1.31+): {@code format.named(name)} (an optional), the constants
 * {@code format.dns1123Label()} and the rest, and {@code <Format>.validate(s)}: none when {@code s} is valid, else
 * the list of Kubernetes' messages. The name formats (DNS labels and subdomains, qualified names, label values) come
 * from the caller, which owns the project's wording of them; uri, uuid, byte, date and datetime are here.
 */
final class FormatLibrary extends KubernetesLibrary {
    /** Kubernetes' name for the type (apiservercel.FormatType). */
    static final OpaqueType FORMAT = OpaqueType.create("kubernetes.NamedFormat");
    private static final Pattern UUID = Pattern.compile(
            "(?i)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32}");

    /** One named format: its validation, returning Kubernetes' messages (empty when valid). */
    record NamedFormat(String name, Function<String, List<String>> validate) {
    }

    private final Map<String, NamedFormat> formats = new LinkedHashMap<>();

    FormatLibrary(Map<String, Function<String, List<String>>> nameFormats) {
        nameFormats.forEach((name, check) -> formats.put(name, new NamedFormat(name, check)));
        formats.put("uri", new NamedFormat("uri", FormatLibrary::uri));
        formats.put("uuid", new NamedFormat("uuid",
                s -> UUID.matcher(s).matches() ? List.of() : List.of("does not match the UUID format")));
        formats.put("byte", new NamedFormat("byte", s -> base64(s) ? List.of() : List.of("invalid base64")));
        formats.put("date", new NamedFormat("date", s -> date(s) ? List.of() : List.of("invalid date")));
        formats.put("datetime", new NamedFormat("datetime",
                s -> dateTime(s) ? List.of() : List.of("invalid datetime")));
    }

    @Override
    List<CelFunctionDecl> functions() {
        List<CelFunctionDecl> out = new ArrayList<>();
        out.add(newFunctionDeclaration("validate", newMemberOverload("format-validate",
                OptionalType.create(ListType.create(SimpleType.STRING)), FORMAT, SimpleType.STRING)));
        out.add(newFunctionDeclaration("format.named",
                newGlobalOverload("format-named", OptionalType.create(FORMAT), SimpleType.STRING)));
        formats.keySet().forEach(name -> out.add(newFunctionDeclaration("format." + name,
                newGlobalOverload("format." + name, FORMAT, List.of()))));
        return out;
    }

    @Override
    List<CelFunctionBinding> bindings() {
        List<CelFunctionBinding> out = new ArrayList<>();
        out.add(CelFunctionBinding.from("format-validate", NamedFormat.class, String.class, (f, s) -> {
            List<String> problems = f.validate().apply(s);
            return problems.isEmpty() ? Optional.empty() : Optional.of(ImmutableList.copyOf(problems));
        }));
        out.add(CelFunctionBinding.from("format-named", String.class, name -> Optional.ofNullable(formats.get(name))));
        formats.forEach((name, format) -> out.add(CelFunctionBinding.from("format." + name, List.of(),
                args -> format)));
        return out;
    }

    private static List<String> uri(String s) {
        try {
            RequestUrl.parse(s);
            return List.of();
        } catch (RequestUrl.Invalid e) {
            return List.of(e.getMessage());
        }
    }

    /** Go's base64.StdEncoding: padded, the standard alphabet. */
    private static boolean base64(String s) {
        if (s.length() % 4 != 0) {
            return false;
        }
        try {
            Base64.getDecoder().decode(s);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean date(String s) {
        try {
            LocalDate.parse(s);
            return s.length() == 10;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private static boolean dateTime(String s) {
        try {
            OffsetDateTime.parse(s);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }
}
