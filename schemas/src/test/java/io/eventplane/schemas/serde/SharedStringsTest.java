package io.eventplane.schemas.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SharedStringsTest {

    private static String decode(String s) {
        byte[] utf8 = (s + "trailing bytes past the length").getBytes(StandardCharsets.UTF_8);
        return SharedStrings.decode(utf8, s.getBytes(StandardCharsets.UTF_8).length);
    }

    @Test
    void manyMoreStringsThanSlotsEachDecodeToThemselves() {
        // four times the slots: most share a slot with others, and each must still come back as itself
        for (int i = 0; i < SharedStrings.SLOTS * 4; i++) {
            String s = "pod-" + i;
            assertEquals(s, decode(s));
        }
    }

    @Test
    void aStringDecodedAgainIsTheInstanceDecodedBefore() {
        String first = decode("kubernetes.io/hostname");
        assertSame(first, decode("kubernetes.io/hostname"));
        assertEquals("", decode(""));
        String multiByte = "t\u00e9st \u6771\u4eac";
        assertSame(decode(multiByte), decode(multiByte));
    }
}
