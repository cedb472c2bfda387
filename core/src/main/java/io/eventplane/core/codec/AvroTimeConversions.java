package io.eventplane.core.codec;

import org.apache.avro.data.TimeConversions;
import org.apache.avro.generic.GenericData;

/**
 * Registers the timestamp conversions on Avro's global {@link GenericData}. Records copied by a generated builder or
 * read from the log hold their arrays as {@code GenericData.Array}, whose equals and hashCode go through the global
 * GenericData; without these conversions comparing, say, two Pods that have status conditions throws
 * {@code AvroRuntimeException: Unknown datum type java.time.Instant}. Idempotent; {@link KubeJson} installs it, and a
 * process that compares records without touching KubeJson should call it once at startup.
 */
public final class AvroTimeConversions {
    static {
        GenericData.get().addLogicalTypeConversion(new TimeConversions.TimestampMillisConversion());
        GenericData.get().addLogicalTypeConversion(new TimeConversions.TimestampMicrosConversion());
    }

    private AvroTimeConversions() {
    }

    /** Makes sure the conversions are installed (the work happens once, in the class initialiser). */
    public static void install() {
        // class initialisation did it
    }
}
