package io.eventplane.core.cel;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelBuilder;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationResult;
import dev.cel.compiler.CelCompilerLibrary;
import dev.cel.extensions.CelExtensions;
import dev.cel.extensions.CelStringExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelRuntimeLibrary;
import dev.cel.validator.CelValidator;
import dev.cel.validator.CelValidatorFactory;
import dev.cel.validator.validators.DurationLiteralValidator;
import dev.cel.validator.validators.TimestampLiteralValidator;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The CEL environment Kubernetes 1.33 gives CRD validation rules (apiserver's cel/environment base.go), in cel-java:
 * standard functions and macros, optional types, cross-type numeric comparisons, cel-go's extended strings (version 2:
 * all but {@code reverse}, with {@code format} from {@link StringFormatLibrary} as cel-java lacks it), sets,
 * two-variable comprehensions, and Kubernetes' own libraries written here: lists, regex, URLs, IP, CIDR, quantity,
 * format and semver. Not here: authz (no authorizer in CRD rules) and image. Nothing Kubernetes lacks is enabled (no
 * math, list, encoder or regex extensions). One leniency: semver came in 1.33, and Kubernetes offers a library to new
 * rules one minor release after it introduces it, so a 1.33 apiserver may still refuse semver in a new CRD.
 */
public final class KubernetesCel {
    private static final List<KubernetesLibrary> LIBRARIES = List.of(new ListsLibrary(), new RegexLibrary(),
            new UrlsLibrary(), new IpLibrary(), new CidrLibrary(), new QuantityLibrary(), new SemverLibrary(),
            new StringFormatLibrary());

    private KubernetesCel() {
    }

    /**
     * A builder holding the environment; the caller adds its variables. {@code nameFormats} are the format library's
     * name checks (dns1123Label, qualifiedName, labelValue...: each returning Kubernetes' messages, empty when valid).
     */
    public static CelBuilder builder(CelOptions options, Map<String, Function<String, List<String>>> nameFormats) {
        List<CelCompilerLibrary> compiler = new ArrayList<>();
        List<CelRuntimeLibrary> runtime = new ArrayList<>();
        CelStringExtensions strings = CelExtensions.strings(
                EnumSet.complementOf(EnumSet.of(CelStringExtensions.Function.REVERSE)));
        compiler.add(strings);
        runtime.add(strings);
        compiler.add(CelExtensions.sets(options));
        runtime.add(CelExtensions.sets(options));
        compiler.add(CelExtensions.optional());
        runtime.add(CelExtensions.optional());
        compiler.add(CelExtensions.comprehensions());
        runtime.add(CelExtensions.comprehensions());
        compiler.addAll(LIBRARIES);
        runtime.addAll(LIBRARIES);
        FormatLibrary formats = new FormatLibrary(nameFormats);
        compiler.add(formats);
        runtime.add(formats);
        return CelFactory.standardCelBuilder()
                .setOptions(options)
                .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
                .addCompilerLibraries(compiler)
                .addRuntimeLibraries(runtime);
    }

    /**
     * Kubernetes' compile-time literal checks: regex (RE2), duration and timestamp literals must parse (1.29+), and
     * list and map literals are homogeneous (apart from string.format's arguments). Returns the errors, or null.
     */
    public static String literalErrors(Cel cel, CelAbstractSyntaxTree ast) {
        CelValidator validator = CelValidatorFactory.standardCelValidatorBuilder(cel)
                .addAstValidators(RegexLiterals.INSTANCE, DurationLiteralValidator.INSTANCE,
                        TimestampLiteralValidator.INSTANCE, HomogeneousLiterals.INSTANCE)
                .build();
        CelValidationResult result = validator.validate(ast);
        return result.hasError() ? result.getErrorString() : null;
    }
}
