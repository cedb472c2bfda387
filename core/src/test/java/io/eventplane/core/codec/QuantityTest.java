package io.eventplane.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("Quantity")
class QuantityTest {

    @ParameterizedTest(name = "{0}: milli {1}, value {2}, canonical {3}")
    @CsvSource({
            "100m,     100,           1,             100m",
            "0.5,      500,           1,             500m",
            "1.5,      1500,          2,             1500m",
            "1,        1000,          1,             1",
            "1000,     1000000,       1000,          1k",
            "1.5k,     1500000,       1500,          1500",
            "2k,       2000000,       2000,          2k",
            "1e3,      1000000,       1000,          1e3",
            "1E3,      1000000,       1000,          1e3",
            "1.5e-3,   2,             1,             1500e-6",
            "1Gi,      1073741824000, 1073741824,    1Gi",
            "500Mi,    524288000000,  524288000,     500Mi",
            "1.5Gi,    1610612736000, 1610612736,    1536Mi",
            "1024,     1024000,       1024,          1024",
            "1Ki,      1024000,       1024,          1Ki",
            "0.5Ki,    512000,        512,           512",
            "1n,       1,             1,             1n",
            "0.1n,     1,             1,             1n",
            "10u,      1,             1,             10u",
            "0,        0,             0,             0",
            "0.000,    0,             0,             0",
            "-100m,    -100,          0,             -100m",
            "+2,       2000,          2,             2",
            "12M,      12000000000,   12000000,      12M",
            "3E,       3000000000000000000000, 3000000000000000000, 3E",
            ".5,       500,           1,             500m",
            "1.,       1000,          1,             1",
    })
    @DisplayName("parses the Kubernetes grammar, rounds up and prints the canonical form")
    void table(String text, String milli, String value, String canonical) {
        Quantity q = Quantity.parse(text);
        assertEquals(saturated(milli), q.milliValue());
        assertEquals(saturated(value), q.value());
        assertEquals(canonical, q.toString());
        assertEquals(q, Quantity.parse(canonical));
    }

    private static long saturated(String decimal) {
        java.math.BigInteger v = new java.math.BigInteger(decimal);
        return v.bitLength() > 63 ? Long.MAX_VALUE : v.longValue();
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"", "abc", "1 Gi", "1Gb", "Gi", "-", "1.2.3", "1e", "12Mi3", " 1"})
    @DisplayName("rejects text outside the grammar with Kubernetes' message")
    void invalidFormat(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Quantity.parse(text));
        assertTrue(List.of(Quantity.FORMAT_MESSAGE, Quantity.SUFFIX_MESSAGE).contains(e.getMessage()), e.getMessage());
        assertFalse(Quantity.isValid(text));
    }

    @Test
    @DisplayName("reports the grammar, a bad suffix and a missing number with Kubernetes' messages")
    void messages() {
        assertEquals("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
                assertThrows(IllegalArgumentException.class, () -> Quantity.parse("1Gb")).getMessage());
        assertEquals("unable to parse quantity's suffix",
                assertThrows(IllegalArgumentException.class, () -> Quantity.parse("1kk")).getMessage());
        assertEquals("unable to parse numeric part of quantity",
                assertThrows(IllegalArgumentException.class, () -> Quantity.parse(".")).getMessage());
    }

    @Test
    @DisplayName("compares amounts, not spellings")
    void compares() {
        assertEquals(0, Quantity.parse("1Ki").compareTo(Quantity.parse("1024")));
        assertEquals(Quantity.parse("0.5"), Quantity.parse("500m"));
        assertEquals(Quantity.parse("0.5").hashCode(), Quantity.parse("500m").hashCode());
        assertTrue(Quantity.parse("1Gi").compareTo(Quantity.parse("1G")) > 0);
        assertTrue(Quantity.compare(Quantity.parse("999m"), Quantity.parse("1")) < 0);
        List<String> sorted = Stream.of("1Gi", "100Mi", "1G", "2", "500m")
                .map(Quantity::parse).sorted().map(Quantity::toString).toList();
        assertEquals(List.of("500m", "2", "100Mi", "1G", "1Gi"), sorted);
    }

    @Test
    @DisplayName("caps binary quantities at 2^63-1 and saturates whole-unit values")
    void bounds() {
        assertEquals(Long.MAX_VALUE, Quantity.parse("16Ei").value());
        assertEquals(Long.MAX_VALUE, Quantity.parse("100E").milliValue());
    }
}
