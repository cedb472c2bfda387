package io.eventplane.core.container;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A POSIX ustar archive of a container's files, as {@code tar cf -} writes it ({@code kubectl cp} reads it). */
final class TarArchive {
    private static final int BLOCK = 512;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    void directory(String name) {
        header(name.endsWith("/") ? name : name + "/", 0, '5', 0755);
    }

    void file(String name, byte[] content) {
        header(name, content.length, '0', 0644);
        out.writeBytes(content);
        pad(content.length);
    }

    /** The archive with its two closing zero blocks. */
    byte[] finish() {
        out.writeBytes(new byte[BLOCK * 2]);
        return out.toByteArray();
    }

    private void header(String name, long size, char type, int mode) {
        byte[] h = new byte[BLOCK];
        byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
        String prefix = "";
        if (nameBytes.length > 100) { // split at a slash into prefix (155) and name (100), as ustar does
            int cut = name.lastIndexOf('/', name.length() - 2);
            prefix = name.substring(0, cut);
            nameBytes = name.substring(cut + 1).getBytes(StandardCharsets.UTF_8);
        }
        put(h, 0, nameBytes, 100);
        octal(h, 100, 8, mode);
        octal(h, 108, 8, 0);
        octal(h, 116, 8, 0);
        octal(h, 124, 12, size);
        octal(h, 136, 12, 0);
        h[156] = (byte) type;
        put(h, 257, "ustar\0".getBytes(StandardCharsets.US_ASCII), 6);
        put(h, 263, "00".getBytes(StandardCharsets.US_ASCII), 2);
        put(h, 265, "root".getBytes(StandardCharsets.US_ASCII), 32);
        put(h, 297, "root".getBytes(StandardCharsets.US_ASCII), 32);
        put(h, 345, prefix.getBytes(StandardCharsets.UTF_8), 155);
        Arrays.fill(h, 148, 156, (byte) ' ');
        long sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        byte[] checksum = String.format("%06o\0 ", sum).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(checksum, 0, h, 148, 8);
        out.writeBytes(h);
    }

    private void pad(long size) {
        int rest = (int) (size % BLOCK);
        if (rest != 0) {
            out.writeBytes(new byte[BLOCK - rest]);
        }
    }

    private static void put(byte[] h, int at, byte[] value, int max) {
        System.arraycopy(value, 0, h, at, Math.min(value.length, max));
    }

    private static void octal(byte[] h, int at, int width, long value) {
        String s = String.format("%0" + (width - 1) + "o", value);
        put(h, at, s.getBytes(StandardCharsets.US_ASCII), width - 1);
    }
}
