package io.eventplane.testkit;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension: starts the JVM's {@link SharedCluster} (broker and registry) before the test class and injects
 * it into test constructors and methods that declare a {@code SharedCluster} parameter.
 *
 * <pre>{@code
 * @ExtendWith(SharedClusterExtension.class)
 * class PodEventsIT {
 *     @Test void podCreatedIsReadBack(SharedCluster cluster) { ... cluster.bootstrapServers() ... }
 * }
 * }</pre>
 */
public final class SharedClusterExtension implements BeforeAllCallback, ParameterResolver {

    @Override
    public void beforeAll(ExtensionContext context) {
        SharedCluster.get().startAll();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == SharedCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return SharedCluster.get();
    }
}
