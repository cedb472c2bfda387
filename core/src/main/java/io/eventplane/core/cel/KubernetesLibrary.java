package io.eventplane.core.cel;

import dev.cel.checker.CelCheckerBuilder;
import dev.cel.common.CelFunctionDecl;
import dev.cel.compiler.CelCompilerLibrary;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelRuntimeBuilder;
import dev.cel.runtime.CelRuntimeLibrary;
import io.eventplane.core.meta.GoStrings;
import java.util.List;

/**
 * One of Kubernetes' CEL libraries as cel-java takes it: its function declarations for the checker, its bindings for
 * the runtime. Overload ids are Kubernetes' where cel-java's dispatch allows them.
 */
abstract class KubernetesLibrary implements CelCompilerLibrary, CelRuntimeLibrary {

    abstract List<CelFunctionDecl> functions();

    abstract List<CelFunctionBinding> bindings();

    @Override
    public void setCheckerOptions(CelCheckerBuilder checker) {
        checker.addFunctionDeclarations(functions());
    }

    @Override
    public void setRuntimeOptions(CelRuntimeBuilder runtime) {
        runtime.addFunctionBindings(bindings());
    }

    /** A runtime error, worded as Kubernetes' library words it. */
    static CelEvaluationException error(String format, Object... args) {
        return new CelEvaluationException(args.length == 0 ? format : String.format(format, args));
    }

    /** Go's strconv.Quote for the text these libraries quote in their messages. */
    static String quote(String s) {
        return GoStrings.quote(s);
    }
}
