package io.eventplane.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import io.eventplane.model.Node;
import io.eventplane.model.NodeCondition;
import io.eventplane.model.NodeStatus;
import java.io.File;
import java.lang.reflect.Constructor;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.avro.LogicalTypes;
import org.apache.avro.generic.GenericData;
import org.junit.jupiter.api.Test;

/**
 * Records compare equal with their timestamps however they were made, and nobody has to install Avro's time
 * conversions first: the schemas module registers them with Avro (META-INF/services/org.apache.avro.Conversion).
 */
class TimeConversionsTest {

    @Test
    void everyAvroModelConvertsTimestamps() {
        for (GenericData model : List.of(GenericData.get(), new GenericData(), new Node().getSpecificData())) {
            assertNotNull(model.getConversionFor(LogicalTypes.timestampMillis()), "timestamp-millis on " + model);
            assertNotNull(model.getConversionFor(LogicalTypes.timestampMicros()), "timestamp-micros on " + model);
        }
    }

    @Test
    void aFreshlyLoadedRecordComparesEqualWithItsTimestamps() throws Exception {
        // Avro and the generated classes load anew here, so nothing this JVM ran before can have installed anything.
        try (URLClassLoader fresh = new URLClassLoader(classPath(), ClassLoader.getPlatformClassLoader())) {
            Class<?> comparison = fresh.loadClass(CopiedNodesCompare.class.getName());
            assertNotSame(CopiedNodesCompare.class, comparison);
            Constructor<?> constructor = comparison.getDeclaredConstructor();
            constructor.setAccessible(true);
            assertEquals(Boolean.TRUE, ((Supplier<?>) constructor.newInstance()).get());
        }
    }

    @Test
    void copiedRecordsCompareEqualWithTheirTimestamps() {
        assertEquals(Boolean.TRUE, new CopiedNodesCompare().get());
    }

    /**
     * Two builder copies of a Node whose conditions carry an Instant. A copy holds its list as a
     * {@code GenericData.Array}, whose equals goes through the global {@code GenericData.get()}, not the record's
     * own model: without the conversions it throws "Unknown datum type java.time.Instant".
     */
    static final class CopiedNodesCompare implements Supplier<Boolean> {
        @Override
        public Boolean get() {
            NodeCondition ready = NodeCondition.newBuilder().setType("Ready").setStatus("True")
                    .setLastHeartbeatTime(Instant.parse("2026-11-21T10:00:00Z")).build();
            Node node = Node.newBuilder().setStatus(NodeStatus.newBuilder().setConditions(List.of(ready)).build()).build();
            Node a = Node.newBuilder(node).build();
            Node b = Node.newBuilder(node).build();
            assertInstanceOf(GenericData.Array.class, a.getStatus().getConditions());
            return a.getStatus().getConditions().equals(b.getStatus().getConditions()) && a.equals(b);
        }
    }

    /** The test class path; a manifest-only jar (surefire's) brings its Class-Path along in URLClassLoader. */
    private static URL[] classPath() throws MalformedURLException {
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            urls.add(new File(entry).toURI().toURL());
        }
        return urls.toArray(URL[]::new);
    }
}
