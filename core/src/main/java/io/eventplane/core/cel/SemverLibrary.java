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

/**
 * Kubernetes' semver library ({@code kubernetes.Semver}, version 1 as 1.33 serves it): {@code semver()} and
 * {@code isSemver()} (with an optional normalize flag), {@code major/minor/patch},
 * {@code isGreaterThan/isLessThan/compareTo}.
 */
final class SemverLibrary extends KubernetesLibrary {
    /** Kubernetes' name for the type (apiservercel.SemverType). */
    static final OpaqueType SEMVER = OpaqueType.create("kubernetes.Semver");

    @Override
    List<CelFunctionDecl> functions() {
        return List.of(
                newFunctionDeclaration("semver", newGlobalOverload("string_to_semver", SEMVER, SimpleType.STRING),
                        newGlobalOverload("string_bool_to_semver", SEMVER, SimpleType.STRING, SimpleType.BOOL)),
                newFunctionDeclaration("isSemver",
                        newGlobalOverload("is_semver_string", SimpleType.BOOL, SimpleType.STRING),
                        newGlobalOverload("is_semver_string_bool", SimpleType.BOOL, SimpleType.STRING,
                                SimpleType.BOOL)),
                binary("isGreaterThan", "semver_is_greater_than", SimpleType.BOOL),
                binary("isLessThan", "semver_is_less_than", SimpleType.BOOL),
                binary("compareTo", "semver_compare_to", SimpleType.INT),
                newFunctionDeclaration("major", newMemberOverload("semver_major", SimpleType.INT, SEMVER)),
                newFunctionDeclaration("minor", newMemberOverload("semver_minor", SimpleType.INT, SEMVER)),
                newFunctionDeclaration("patch", newMemberOverload("semver_patch", SimpleType.INT, SEMVER)));
    }

    private static CelFunctionDecl binary(String name, String overload, CelType result) {
        return newFunctionDeclaration(name, newMemberOverload(overload, result, SEMVER, SEMVER));
    }

    @Override
    List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("string_to_semver", String.class, s -> semver(s, false)),
                CelFunctionBinding.from("string_bool_to_semver", String.class, Boolean.class, SemverLibrary::semver),
                CelFunctionBinding.from("is_semver_string", String.class, s -> isSemver(s, false)),
                CelFunctionBinding.from("is_semver_string_bool", String.class, Boolean.class, SemverLibrary::isSemver),
                CelFunctionBinding.from("semver_is_greater_than", Semver.class, Semver.class,
                        (a, b) -> a.compareTo(b) > 0),
                CelFunctionBinding.from("semver_is_less_than", Semver.class, Semver.class,
                        (a, b) -> a.compareTo(b) < 0),
                CelFunctionBinding.from("semver_compare_to", Semver.class, Semver.class,
                        (a, b) -> (long) a.compareTo(b)),
                CelFunctionBinding.from("semver_major", Semver.class, v -> v.major),
                CelFunctionBinding.from("semver_minor", Semver.class, v -> v.minor),
                CelFunctionBinding.from("semver_patch", Semver.class, v -> v.patch));
    }

    private static Semver semver(String s, boolean normalize) throws CelEvaluationException {
        try {
            return normalize ? Semver.parseNormalized(s) : Semver.parse(s);
        } catch (Semver.Invalid e) {
            throw error(e.getMessage());
        }
    }

    private static boolean isSemver(String s, boolean normalize) {
        try {
            semver(s, normalize);
            return true;
        } catch (CelEvaluationException e) {
            return false;
        }
    }
}
