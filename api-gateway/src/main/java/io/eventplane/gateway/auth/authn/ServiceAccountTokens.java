package io.eventplane.gateway.auth.authn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.security.Signature;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * ServiceAccount tokens as kube-apiserver issues them: RS256 JWTs signed by the cluster's service account key, with
 * Kubernetes' claims ({@code iss}, {@code sub = system:serviceaccount:<ns>:<name>}, {@code aud}, {@code exp},
 * {@code kubernetes.io: {namespace, serviceaccount: {name, uid}, pod}}).
 */
public final class ServiceAccountTokens {
    public static final String ISSUER = "https://kubernetes.default.svc.cluster.local";
    /** kube-apiserver's default {@code --api-audiences}: the issuer. */
    public static final List<String> API_AUDIENCES = List.of(ISSUER);
    public static final String PREFIX = "system:serviceaccount:";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder B64D = Base64.getUrlDecoder();

    private final KeyPair key;
    private final String keyId;

    public ServiceAccountTokens(KeyPair key) {
        this.key = key;
        this.keyId = keyId(key);
    }

    /** What a valid token says. */
    public record Claims(String namespace, String name, String uid, String podName, String podUid, Instant expires) {
        public String username() {
            return PREFIX + namespace + ":" + name;
        }
    }

    /** A token that is ours but must not be believed (expired, badly signed, another audience...). */
    public static final class InvalidToken extends Exception {
        InvalidToken(String why) {
            super(why);
        }
    }

    /** A signed token for the service account, valid from {@code now} for {@code validity}. */
    public String issue(String namespace, String name, String uid, List<String> audiences, Instant now,
                        Duration validity, String podName, String podUid) {
        ObjectNode header = JSON.createObjectNode().put("alg", "RS256").put("kid", keyId);
        ObjectNode claims = JSON.createObjectNode();
        var aud = claims.putArray("aud");
        (audiences.isEmpty() ? API_AUDIENCES : audiences).forEach(aud::add);
        long iat = now.getEpochSecond();
        claims.put("exp", iat + validity.toSeconds());
        claims.put("iat", iat);
        claims.put("iss", ISSUER);
        claims.put("jti", UUID.randomUUID().toString());
        ObjectNode k8s = claims.putObject("kubernetes.io");
        k8s.put("namespace", namespace);
        if (podName != null) {
            k8s.putObject("pod").put("name", podName).put("uid", podUid == null ? "" : podUid);
        }
        k8s.putObject("serviceaccount").put("name", name).put("uid", uid);
        claims.put("nbf", iat);
        claims.put("sub", PREFIX + namespace + ":" + name);
        String signingInput = part(header) + "." + part(claims);
        return signingInput + "." + B64.encodeToString(sign(signingInput));
    }

    /**
     * The claims of a token this cluster issued, checked: signature, issuer, audience, expiry. Empty when the token
     * is not a JWT of ours at all (another authenticator may know it); {@link InvalidToken} when it is, but fails.
     */
    public Optional<Claims> verify(String token, Instant now) throws InvalidToken {
        String[] parts = token.split("\\.", -1);
        if (parts.length != 3) {
            return Optional.empty();
        }
        JsonNode claims;
        try {
            JsonNode header = JSON.readTree(B64D.decode(parts[0]));
            claims = JSON.readTree(B64D.decode(parts[1]));
            if (!header.path("alg").asText().equals("RS256") || !ISSUER.equals(claims.path("iss").asText())) {
                return Optional.empty();
            }
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
        try {
            Signature s = Signature.getInstance("SHA256withRSA");
            s.initVerify(key.getPublic());
            s.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
            if (!s.verify(B64D.decode(parts[2]))) {
                throw new InvalidToken("invalid signature");
            }
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new InvalidToken("invalid signature");
        }
        long nowSeconds = now.getEpochSecond();
        if (claims.path("exp").asLong(0) <= nowSeconds) {
            throw new InvalidToken("token has expired");
        }
        if (claims.path("nbf").asLong(0) > nowSeconds + 60) {
            throw new InvalidToken("token is not valid yet");
        }
        List<String> audiences = new ArrayList<>();
        JsonNode aud = claims.path("aud");
        if (aud.isArray()) {
            aud.forEach(a -> audiences.add(a.asText()));
        } else if (aud.isTextual()) {
            audiences.add(aud.asText());
        }
        if (audiences.stream().noneMatch(API_AUDIENCES::contains)) {
            throw new InvalidToken("token audiences " + audiences + " is invalid for the target audiences "
                    + API_AUDIENCES);
        }
        JsonNode k8s = claims.path("kubernetes.io");
        String namespace = k8s.path("namespace").asText("");
        String name = k8s.path("serviceaccount").path("name").asText("");
        if (namespace.isEmpty() || name.isEmpty()
                || !claims.path("sub").asText().equals(PREFIX + namespace + ":" + name)) {
            throw new InvalidToken("token lacks its service account claims");
        }
        JsonNode pod = k8s.path("pod");
        return Optional.of(new Claims(namespace, name, k8s.path("serviceaccount").path("uid").asText(""),
                pod.isObject() ? pod.path("name").asText() : null, pod.isObject() ? pod.path("uid").asText() : null,
                Instant.ofEpochSecond(claims.path("exp").asLong())));
    }

    private byte[] sign(String input) {
        try {
            Signature s = Signature.getInstance("SHA256withRSA");
            s.initSign(key.getPrivate());
            s.update(input.getBytes(StandardCharsets.US_ASCII));
            return s.sign();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign a service account token: " + e, e);
        }
    }

    private static String part(ObjectNode json) {
        try {
            return B64.encodeToString(JSON.writeValueAsBytes(json));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A key id from the public key, as kube-apiserver derives one (a hash of its DER form). */
    private static String keyId(KeyPair key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getPublic().getEncoded());
            return B64.encodeToString(digest);
        } catch (GeneralSecurityException e) {
            return HexFormat.of().formatHex(key.getPublic().getEncoded()).substring(0, 16);
        }
    }
}
