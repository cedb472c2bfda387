package io.eventplane.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class DigestsTest {
    private static final String[] NAMES = {"", "Pod/default/web-0@42", "Node//node-0001@7", "t\u00e9st \u6771\u4eac",
        "x".repeat(10_000)};

    @Test
    void aNameUuidIsTheJdksNameUuidFromBytes() {
        for (String name : NAMES) {
            assertEquals(UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).toString(),
                    Digests.nameUuid(name), name);
        }
    }

    @Test
    void sha256IsTheJdksAndTheDigestIsReusedCleanly() throws Exception {
        for (int round = 0; round < 2; round++) {
            for (String s : NAMES) {
                byte[] expected = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
                assertEquals(HexFormat.of().formatHex(expected), Digests.sha256Hex(s), s);
            }
        }
    }
}
