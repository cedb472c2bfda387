package io.eventplane.core;

import java.util.Arrays;

/**
 * resourceVersion is a log position. A change decided at offset {@code o} of command partition {@code p} (of {@code P})
 * gets the object resourceVersion {@code (o + 1) * P + p}: unique, increasing per partition, never 0 (0 means "any" in
 * Kubernetes). A list or watch position is the vector of per-partition positions; with one partition it is the same
 * number as an object's resourceVersion, so kubectl sees ordinary integers.
 */
public final class ResourceVersions {
    private ResourceVersions() {
    }

    public static long of(int partition, long offset, int partitions) {
        return (offset + 1) * partitions + partition;
    }

    public static int partition(long resourceVersion, int partitions) {
        return (int) (resourceVersion % partitions);
    }

    /** Encodes a position vector: one number per partition, dot-separated ({@code "17"} with one partition). */
    public static String encode(long[] positions) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < positions.length; i++) {
            if (i > 0) {
                sb.append('.');
            }
            sb.append(positions[i]);
        }
        return sb.toString();
    }

    /**
     * Decodes a position vector. A single object resourceVersion (one number) with several partitions positions its
     * own partition exactly and the others at 0 (from the start of what is retained).
     *
     * @throws IllegalArgumentException when the text is not a resourceVersion we issued
     */
    public static long[] decode(String text, int partitions) {
        String[] parts = text.split("\\.", -1);
        long[] positions = new long[partitions];
        try {
            if (parts.length == 1) {
                long rv = Long.parseLong(parts[0]);
                if (rv < 0) {
                    throw new NumberFormatException();
                }
                if (partitions == 1) {
                    positions[0] = rv;
                } else {
                    positions[partition(rv, partitions)] = rv;
                }
                return positions;
            }
            if (parts.length != partitions) {
                throw new IllegalArgumentException("resourceVersion \"" + text + "\" has " + parts.length
                        + " positions, the log has " + partitions + " partitions");
            }
            for (int i = 0; i < partitions; i++) {
                positions[i] = Long.parseLong(parts[i]);
            }
            return positions;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid resourceVersion \"" + text + "\"");
        }
    }

    public static boolean after(long[] position, long resourceVersion) {
        int p = partition(resourceVersion, position.length);
        return resourceVersion > position[p];
    }

    public static long[] copy(long[] positions) {
        return Arrays.copyOf(positions, positions.length);
    }
}
