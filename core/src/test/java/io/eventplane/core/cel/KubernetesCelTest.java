package io.eventplane.core.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cel.bundle.Cel;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationResult;
import dev.cel.runtime.CelEvaluationException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kubernetes' CEL libraries (issue 26 item 2), one table per library. A row is {@code expression ==> outcome}: the
 * outcome is the value (printed), {@code eval error: <text>} or {@code compile error: <text>}, texts as Kubernetes
 * words them (upstream's library tests and doc comments).
 */
class KubernetesCelTest {
    private static final CelOptions OPTIONS = CelOptions.current().enableOptionalSyntax(true)
            .enableHeterogeneousNumericComparisons(true).build();
    /** The format library's name checks come from the caller; one stands in for them here. */
    private static final Cel CEL = KubernetesCel.builder(OPTIONS, Map.of("dns1123Label",
            s -> s.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?") ? List.of() : List.of("not a label: " + s))).build();

    @ParameterizedTest(name = "{0}")
    @DisplayName("CRD-20 lists library: isSorted, sum, min, max, indexOf, lastIndexOf")
    @ValueSource(strings = {
            "[1, 2, 3].isSorted() ==> true",
            "['a', 'b', 'b', 'c'].isSorted() ==> true",
            "[2.0, 1.0].isSorted() ==> false",
            "[1].isSorted() ==> true",
            "[].isSorted() ==> true",
            "[1, 3].sum() ==> 4",
            "[1.0, 3.0].sum() ==> 4.0",
            "[duration('1m'), duration('1s')].sum() == duration('61s') ==> true",
            "[].sum() ==> 0",
            "[9223372036854775807, 1].sum() ==> eval error: integer overflow",
            "[1, 3].min() ==> 1",
            "[1, 3].max() ==> 3",
            "['b', 'a', 'c'].max() ==> c",
            "[].min() ==> eval error: min called on empty list",
            "([0] + []).min() ==> 0",
            "[1, 2, 2, 3].indexOf(2) ==> 1",
            "['a', 'b', 'b', 'c'].lastIndexOf('b') ==> 2",
            "[1.0].indexOf(1.1) ==> -1",
            "[].indexOf('string') ==> -1",
            "'abcb'.indexOf('b') ==> 1",
            "dyn([3, 1]).isSorted() ==> false",
            "[dyn(1), dyn(2.5), dyn(3u)].isSorted() ==> true",
            "[dyn(1), dyn(1.0)].indexOf(1.0) ==> 0",
            "[1.0, double('NaN')].isSorted() ==> eval error: NaN values cannot be ordered",
            "[1, 2].isSorted(1) ==> compile error: found no matching overload for 'isSorted' applied to "
                    + "'list(int).(int)'",
    })
    void lists(String row) {
        check(row);
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("CRD-21 regex library: find and findAll (with and without a limit), RE2 syntax, Go's error text")
    @ValueSource(strings = {
            "'abc 123'.find('[0-9]+') ==> 123",
            "'abc 123'.find('xyz') ==> ",
            "'123 abc 456'.findAll('[0-9]+') ==> [123, 456]",
            "'123 abc 456'.findAll('[0-9]+', 1) ==> [123]",
            "'123 abc 456'.findAll('[0-9]+', 0) ==> []",
            "'123 abc 456'.findAll('xyz') ==> []",
            "'a,b,,c'.findAll('[a-z]*') ==> [a, b, , c]",
            "'abc'.find(dyn('[')) ==> eval error: Illegal regex: error parsing regexp: missing closing ]: `[`",
            "'abc'.find(1) ==> compile error: found no matching overload for 'find' applied to 'string.(int)'",
    })
    void regex(String row) {
        check(row);
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("CRD-22 URL library: url(), isURL() and the URL's scheme, host, hostname, port, escaped path, query")
    @ValueSource(strings = {
            "isURL('https://user:pass@example.com:80/path?query=val#fragment') ==> true",
            "isURL('/absolute-path') ==> true",
            "isURL('https://a:b:c/') ==> false",
            "isURL('../relative-path') ==> false",
            "isURL('') ==> false",
            "url('https://a:b:c/') ==> eval error: URL parse error during conversion from string: "
                    + "parse \"https://a:b:c/\": invalid port \":c\" after host",
            "url('../relative-path') ==> eval error: URL parse error during conversion from string: "
                    + "parse \"../relative-path\": invalid URI for request",
            "url('/path').getScheme() ==> ",
            "url('https://example.com/').getScheme() ==> https",
            "url('HTTPS://example.com/').getScheme() ==> https",
            "url('https://example.com:80/').getHost() ==> example.com:80",
            "url('https://example.com/').getHost() ==> example.com",
            "url('https://[::1]:80/').getHost() ==> [::1]:80",
            "url('https://[::1]/').getHost() ==> [::1]",
            "url('/path').getHost() ==> ",
            "url('https://example.com:80/').getHostname() ==> example.com",
            "url('https://127.0.0.1:80/').getHostname() ==> 127.0.0.1",
            "url('https://[::1]:80/').getHostname() ==> ::1",
            "url('https://example.com:80/').getPort() ==> 80",
            "url('https://example.com/').getPort() ==> ",
            "url('https://example.com/path').getEscapedPath() ==> /path",
            "url('https://example.com/path with spaces/').getEscapedPath() ==> /path%20with%20spaces/",
            "url('https://example.com').getEscapedPath() ==> ",
            "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() ==> {k1=[a], k2=[b, c]}",
            "url('https://example.com/path?key with spaces=value with spaces').getQuery() "
                    + "==> {key with spaces=[value with spaces]}",
            "url('https://example.com/path?').getQuery() ==> {}",
            "url('https://example.com/path#frag').getEscapedPath() ==> /path",
            "url('https://example.com/a') == url('https://example.com/a') ==> true",
            "url(1) ==> compile error: found no matching overload for 'url' applied to '(int)'",
    })
    void urls(String row) {
        check(row);
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("CRD-23 IP library: ip(), isIP(), ip.isCanonical(), string(), family and the address predicates")
    @ValueSource(strings = {
            "isIP('127.0.0.1') ==> true",
            "isIP('::1') ==> true",
            "isIP('127.0.0.256') ==> false",
            "isIP(':::1') ==> false",
            "isIP('::ffff:1.2.3.4') ==> false",
            "isIP('fe80::1%eth0') ==> false",
            "isIP('010.0.0.1') ==> false",
            "ip('127.0.0.256') ==> eval error: IP Address \"127.0.0.256\" parse error during conversion from "
                    + "string: ParseAddr(\"127.0.0.256\"): IPv4 field has value >255",
            "ip('::ffff:1.2.3.4') ==> eval error: IPv4-mapped IPv6 address \"::ffff:1.2.3.4\" is not allowed",
            "ip('fe80::1%eth0') ==> eval error: IP address \"fe80::1%eth0\" with zone value is not allowed",
            "ip.isCanonical('127.0.0.1') ==> true",
            "ip.isCanonical('2001:db8::abcd') ==> true",
            "ip.isCanonical('2001:DB8::ABCD') ==> false",
            "ip.isCanonical('2001:db8::0:0:0:abcd') ==> false",
            "string(ip('2001:db8:0:0:0:0:0:1')) ==> 2001:db8::1",
            "string(ip('1:0:0:1:0:0:0:1')) ==> 1:0:0:1::1",
            "ip('127.0.0.1').family() ==> 4",
            "ip('::1').family() ==> 6",
            "ip('0.0.0.0').isUnspecified() ==> true",
            "ip('::').isUnspecified() ==> true",
            "ip('::1').isUnspecified() ==> false",
            "ip('127.0.0.1').isLoopback() ==> true",
            "ip('192.168.0.1').isLoopback() ==> false",
            "ip('::1').isLoopback() ==> true",
            "ip('224.0.0.1').isLinkLocalMulticast() ==> true",
            "ip('224.0.1.1').isLinkLocalMulticast() ==> false",
            "ip('ff02::1').isLinkLocalMulticast() ==> true",
            "ip('fd00::1').isLinkLocalMulticast() ==> false",
            "ip('169.254.169.254').isLinkLocalUnicast() ==> true",
            "ip('fe80::1').isLinkLocalUnicast() ==> true",
            "ip('fd80::1').isLinkLocalUnicast() ==> false",
            "ip('192.168.0.1').isGlobalUnicast() ==> true",
            "ip('255.255.255.255').isGlobalUnicast() ==> false",
            "ip('2001:db8::abcd').isGlobalUnicast() ==> true",
            "ip('ff00::1').isGlobalUnicast() ==> false",
            "ip('10.0.0.1') == ip('10.0.0.1') ==> true",
            "ip('::1') == ip('0:0::1') ==> true",
    })
    void ips(String row) {
        check(row);
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("CRD-24 CIDR library: cidr(), isCIDR(), string(), containsIP, containsCIDR, ip, masked, prefixLength")
    @ValueSource(strings = {
            "isCIDR('192.168.0.0/16') ==> true",
            "isCIDR('::1/128') ==> true",
            "isCIDR('192.168.0.0/33') ==> false",
            "isCIDR('::1/129') ==> false",
            "isCIDR('192.168.0.0') ==> false",
            "cidr('192.168.0.0/') ==> eval error: network address parse error during conversion from string: "
                    + "network address parse error during conversion from string: "
                    + "netip.ParsePrefix(\"192.168.0.0/\"): bad bits after slash: \"\"",
            "cidr('192.168.0.0/24').containsIP(ip('192.168.0.1')) ==> true",
            "cidr('192.168.0.0/24').containsIP(ip('192.168.1.1')) ==> false",
            "cidr('192.168.0.0/24').containsIP('192.168.0.1') ==> true",
            "cidr('2001:db8::/32').containsIP('2001:db8::1') ==> true",
            "cidr('2001:db8::/32').containsIP('2001:dc8::1') ==> false",
            "cidr('192.168.0.0/24').containsIP('::1') ==> false",
            "cidr('192.168.0.0/16').containsCIDR(cidr('192.168.10.0/24')) ==> true",
            "cidr('192.168.1.0/24').containsCIDR(cidr('192.168.2.0/24')) ==> false",
            "cidr('192.168.0.0/16').containsCIDR('192.168.0.1/32') ==> true",
            "cidr('192.168.0.0/24').containsCIDR('192.168.0.0/23') ==> false",
            "cidr('2001:db8::/32').containsCIDR('2001:db8::/33') ==> true",
            "cidr('192.168.0.1/24').ip() == ip('192.168.0.1') ==> true",
            "cidr('::1/128').ip().family() ==> 6",
            "string(cidr('192.168.0.1/24').masked()) ==> 192.168.0.0/24",
            "string(cidr('2001:db8:1::/32').masked()) ==> 2001:db8::/32",
            "cidr('192.168.0.0/24') == cidr('192.168.0.0/24').masked() ==> true",
            "cidr('192.168.0.1/24') == cidr('192.168.0.1/24').masked() ==> false",
            "cidr('192.168.0.0/16').prefixLength() ==> 16",
            "cidr('::1/128').prefixLength() ==> 128",
            "cidr(192168) ==> compile error: found no matching overload for 'cidr' applied to '(int)'",
    })
    void cidrs(String row) {
        check(row);
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("CRD-25 quantity library: quantity(), isQuantity(), sign, isInteger/asInteger/asApproximateFloat, "
            + "add/sub, isGreaterThan/isLessThan/compareTo, equality by value")
    @ValueSource(strings = {
            "isQuantity('1.3G') ==> true",
            "isQuantity('1.3Gi') ==> true",
            "isQuantity('1,3G') ==> false",
            "isQuantity('10000k') ==> true",
            "isQuantity('200K') ==> false",
            "isQuantity('Three') ==> false",
            "isQuantity('Mi') ==> false",
            "quantity('Three') ==> eval error: quantities must match the regular expression "
                    + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
            "quantity('200K') ==> eval error: unable to parse quantity's suffix",
            "quantity('50000000G').isInteger() ==> true",
            "quantity('50k').isInteger() ==> true",
            "quantity('1.5').isInteger() ==> false",
            "quantity('9999999999999999999999999999999999999G').isInteger() ==> false",
            "quantity('9999999999999999999999999999999999999G').asInteger() ==> eval error: cannot convert value "
                    + "to integer",
            "quantity('50k').asInteger() == 50000 ==> true",
            "quantity('50k').sub(20000).asApproximateFloat() == 30000.0 ==> true",
            "quantity('50k').add(quantity('20k')) == quantity('70k') ==> true",
            "quantity('50k').add(20) == quantity('50020') ==> true",
            "quantity('50k').sub(quantity('20k')) == quantity('30k') ==> true",
            "quantity('50k').add(20).sub(quantity('100k')).sub(-50000) == quantity('20') ==> true",
            "quantity('-50k').sign() ==> -1",
            "sign(quantity('0')) ==> 0",
            "quantity('200M').compareTo(quantity('0.2G')) ==> 0",
            "quantity('50M').compareTo(quantity('50Mi')) ==> -1",
            "quantity('50Mi').compareTo(quantity('50M')) ==> 1",
            "quantity('150Mi').isGreaterThan(quantity('100Mi')) ==> true",
            "quantity('50Mi').isGreaterThan(quantity('100Mi')) ==> false",
            "quantity('50M').isLessThan(quantity('100M')) ==> true",
            "quantity('1Gi') == quantity('1024Mi') ==> true",
            "quantity('1Gi').isLessThan('2Gi') ==> compile error: found no matching overload for 'isLessThan' "
                    + "applied to 'kubernetes.Quantity.(string)'",
    })
    void quantities(String row) {
        check(row);
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("CRD-26 format library: format.named() and the format constants, validate() none when valid, else "
            + "the messages")
    @ValueSource(strings = {
            "format.dns1123Label().validate('my-name').hasValue() ==> false",
            "format.dns1123Label().validate('My_Name').value() ==> [not a label: My_Name]",
            "format.named('dns1123Label').hasValue() ==> true",
            "format.named('nope').hasValue() ==> false",
            "format.named('uri').value().validate('/path').hasValue() ==> false",
            "format.uri().validate('https://a:b:c/').value() ==> [parse \"https://a:b:c/\": invalid port \":c\" "
                    + "after host]",
            "format.uuid().validate('123e4567-e89b-12d3-a456-426614174000').hasValue() ==> false",
            "format.uuid().validate('123').value() ==> [does not match the UUID format]",
            "format.byte().validate('aGVsbG8=').hasValue() ==> false",
            "format.byte().validate('aGVsbG8').value() ==> [invalid base64]",
            "format.date().validate('2021-01-01').hasValue() ==> false",
            "format.date().validate('2021-13-01').value() ==> [invalid date]",
            "format.datetime().validate('2021-01-01T00:00:00Z').hasValue() ==> false",
            "format.datetime().validate('yesterday').value() ==> [invalid datetime]",
    })
    void formats(String row) {
        check(row);
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("CRD-26 semver library: semver() and isSemver() (normalizing on request), major/minor/patch, "
            + "comparisons with pre-releases below releases")
    @ValueSource(strings = {
            "isSemver('1.0.0') ==> true",
            "isSemver('0.1.0-alpha.1+build.5') ==> true",
            "isSemver('hello') ==> false",
            "isSemver('v1.0') ==> false",
            "isSemver('v1.0', true) ==> true",
            "isSemver('01.01.01', true) ==> true",
            "isSemver('1.0-rc1', true) ==> false",
            "semver('1.0') ==> eval error: No Major.Minor.Patch elements found",
            "semver('01.0.0') ==> eval error: Major number must not contain leading zeroes \"01\"",
            "semver('v1.0.0', true) == semver('1.0.0') ==> true",
            "semver('1.2.3').major() ==> 1",
            "semver('1.2.3').minor() ==> 2",
            "semver('1.2.3').patch() ==> 3",
            "semver('1.2.3').compareTo(semver('1.2.3')) ==> 0",
            "semver('1.2.3').compareTo(semver('2.0.0')) ==> -1",
            "semver('1.2.3').compareTo(semver('0.1.2')) ==> 1",
            "semver('1.0.0-alpha').isLessThan(semver('1.0.0')) ==> true",
            "semver('1.0.0-alpha.2').isLessThan(semver('1.0.0-alpha.10')) ==> true",
            "semver('1.0.0-alpha.1').isLessThan(semver('1.0.0-alpha.beta')) ==> true",
            "semver('1.0.0+a') == semver('1.0.0+b') ==> true",
            "semver('2.0.0').isGreaterThan(semver('1.9.9')) ==> true",
    })
    void semvers(String row) {
        check(row);
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("CRD-27 the environment is Kubernetes 1.33's: strings v2 with format, sets, optionals, two-variable "
            + "comprehensions; no math, encoders, list or regex extensions; literals checked at compile time "
            + "(regex, duration, homogeneous lists and maps)")
    @ValueSource(strings = {
            "'a,b'.split(',').join('-') ==> a-b",
            "'  x '.trim().upperAscii() ==> X",
            "'hello'.charAt(1) ==> e",
            "'abc'.substring(1) ==> bc",
            "strings.quote('a') ==> \"a\"",
            "'%s is %d'.format(['x', 1]) ==> x is 1",
            "'%.2f and %f'.format([1234.5, 0.5]) ==> 1,234.50 and 0.500000",
            "'%s'.format([[1, 'a', 2.5]]) ==> [1, \"a\", 2.500000]",
            "'%s %s %s'.format([2.5, true, null]) ==> 2.5 true null",
            "'%x %X %o %b 100%%'.format([255, 'hi', 8, 5]) ==> ff 6869 10 101 100%",
            "'%d'.format([1.5]) ==> eval error: error during formatting: decimal clause can only be used on integers, "
                    + "was given double",
            "'%s %s'.format(['a']) ==> eval error: index 1 out of range",
            "'%s'.format([ip('1.2.3.4')]) ==> eval error: error during formatting: string clause can only be used on "
                    + "strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given "
                    + "net.IP",
            "sets.contains([1, 2, 3], [2]) ==> true",
            "sets.intersects([1], [2]) ==> false",
            "{'a': 1}[?'b'].orValue(5) ==> 5",
            "optional.of(1).hasValue() ==> true",
            "[10, 20].all(i, v, v > i) ==> true",
            "{'a': 1}.exists(k, v, k == 'a' && v == 1) ==> true",
            "[1, 2].transformList(i, v, v * 2) ==> [2, 4]",
            "[1, 2, 3].exists_one(x, x > 2) ==> true",
            "1 < 2.5 ==> true",
            "string(1) + string(2.5) + string(true) ==> 12.5true",
            "type(dyn('99%')) == string ? dyn('99%') == '99%' : false ==> true",
            "'/a/b'.size() > 0 ? '/a/b'[0] == '/' : true ==> compile error: found no matching overload for '_[_]'",
            "['a', 'b'].all(l1, ['a', 'b'].exists_one(l2, l1 == l2)) ==> true",
            "'abc'.reverse() ==> compile error: 'reverse'",
            "math.greatest(1, 2) ==> compile error: undeclared reference to 'math'",
            "base64.encode(b'a') ==> compile error: undeclared reference to 'base64'",
            "[2, 1].sort() ==> compile error: 'sort'",
            "'a'.matches('[') ==> compile error: invalid matches argument",
            "matches('a', '(?=a)') ==> compile error: invalid matches argument",
            "'ab'.matches('(?P<first>a)b') ==> true",
            "'abc'.findAll('(') ==> compile error: invalid findAll argument: error parsing regexp: missing closing ): "
                    + "`(`",
            "duration('1x') > duration('1s') ==> compile error: duration validation failed",
            "[1, 'a'].size() == 2 ==> compile error: expected type 'int' but found 'string'",
            "{'a': 1, 'b': 'c'}.size() == 2 ==> compile error: expected type 'int' but found 'string'",
            "[1, dyn(2)] == [1, 2] ==> true",
            "[dyn('a'), 'b'].size() ==> 2",
            "{'a': [1], 'b': [2]}.size() ==> 2",
            "[[1], ['a']].size() == 2 ==> compile error: expected type 'list(int)' but found 'list(string)'",
    })
    void environment(String row) {
        check(row);
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("CRD-28 schema property names escape into CEL names as Kubernetes escapes them")
    @ValueSource(strings = {
            "replicas ==> replicas",
            "max-surge ==> max__dash__surge",
            "example.com/name ==> example__dot__com__slash__name",
            "a__b ==> a__underscores__b",
            "namespace ==> __namespace__",
            "if ==> __if__",
            "1st ==> ",
            "has space ==> ",
    })
    void escapedNames(String row) {
        String name = row.substring(0, row.indexOf(" ==> "));
        assertEquals(row.substring(row.indexOf(" ==> ") + 5), CelNames.escape(name).orElse(""), name);
    }

    private static void check(String row) {
        int arrow = row.indexOf(" ==> ");
        String expression = row.substring(0, arrow);
        String expected = row.substring(arrow + 5);
        CelValidationResult compiled = CEL.compile(expression);
        String compileError = compiled.hasError() ? compiled.getErrorString() : null;
        if (compileError == null) {
            try {
                compileError = KubernetesCel.literalErrors(CEL, compiled.getAst());
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
        if (expected.startsWith("compile error: ")) {
            assertTrue(compileError != null && compileError.contains(expected.substring("compile error: ".length())),
                    expression + " should not compile with " + expected + ", got " + compileError);
            return;
        }
        if (compileError != null) {
            fail(expression + " does not compile: " + compileError);
        }
        Object result;
        try {
            result = CEL.createProgram(compiled.getAst()).eval(Map.of());
        } catch (CelEvaluationException e) {
            if (expected.startsWith("eval error: ")) {
                assertTrue(e.getMessage().contains(expected.substring("eval error: ".length())),
                        expression + " should fail with " + expected + ", got " + e.getMessage());
                return;
            }
            throw new AssertionError(expression + " failed: " + e.getMessage(), e);
        } catch (dev.cel.common.CelValidationException e) {
            throw new AssertionError(e);
        }
        if (expected.startsWith("eval error: ")) {
            fail(expression + " should fail with " + expected + ", got " + result);
        }
        assertEquals(expected, String.valueOf(result), expression);
    }
}
