package io.eventplane.core.cel;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import com.google.common.collect.ImmutableList;
import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;

/**
 * Kubernetes' regex library ({@code kubernetes.regex}): {@code find} and {@code findAll} (with and without a limit).
 * Patterns are RE2, as in Go, through re2j (cel-java's own {@code matches} uses it too), and successive matches follow
 * Go's FindAllString: an empty match right after a previous match is skipped.
 */
final class RegexLibrary extends KubernetesLibrary {

    @Override
    List<CelFunctionDecl> functions() {
        return List.of(
                newFunctionDeclaration("find", newMemberOverload("string_find_string", SimpleType.STRING,
                        SimpleType.STRING, SimpleType.STRING)),
                newFunctionDeclaration("findAll",
                        newMemberOverload("string_find_all_string", ListType.create(SimpleType.STRING),
                                SimpleType.STRING, SimpleType.STRING),
                        newMemberOverload("string_find_all_string_int", ListType.create(SimpleType.STRING),
                                SimpleType.STRING, SimpleType.STRING, SimpleType.INT)));
    }

    @Override
    List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("string_find_string", String.class, String.class, RegexLibrary::find),
                CelFunctionBinding.from("string_find_all_string", String.class, String.class,
                        (s, regex) -> findAll(s, regex, -1)),
                CelFunctionBinding.from("string_find_all_string_int", List.of(String.class, String.class, Long.class),
                        args -> findAll((String) args[0], (String) args[1], (Long) args[2])));
    }

    private static Object find(String s, String regex) throws CelEvaluationException {
        Matcher m = compile(regex).matcher(s);
        return m.find() ? m.group() : "";
    }

    private static Object findAll(String s, String regex, long limit) throws CelEvaluationException {
        Matcher m = compile(regex).matcher(s);
        ImmutableList.Builder<String> out = ImmutableList.builder();
        int found = 0;
        int pos = 0;
        int previousEnd = -1;
        while ((limit < 0 || found < limit) && pos <= s.length() && m.find(pos)) {
            boolean accept = true;
            if (m.end() == m.start()) {
                accept = m.start() != previousEnd;
                pos = m.end() < s.length() ? m.end() + Character.charCount(s.codePointAt(m.end())) : s.length() + 1;
            } else {
                pos = m.end();
            }
            previousEnd = m.end();
            if (accept) {
                out.add(m.group());
                found++;
            }
        }
        return out.build();
    }

    private static Pattern compile(String regex) throws CelEvaluationException {
        try {
            return Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw error("Illegal regex: %s", e.getMessage());
        }
    }
}
