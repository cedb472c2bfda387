package io.eventplane.gateway.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.gateway.protobuf.KindMessages;
import io.eventplane.gateway.protobuf.ProtobufJson;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.Statuses;
import io.kubernetes.client.proto.Runtime;
import java.util.Arrays;
import java.util.List;

/**
 * The Kubernetes protobuf bodies kubectl sends for built-in kinds ({@code kubectl create deployment|job|namespace|...}
 * posts {@code application/vnd.kubernetes.protobuf}), turned into the JSON kubectl would have sent, for the ordinary
 * decoding path (field validation, TypeMeta checks, error wording).
 *
 * <p>Wire format: the magic {@code k8s\0}, then a runtime.Unknown whose typeMeta names the object's apiVersion and kind
 * and whose raw bytes are the object's message. The messages come from io.kubernetes:client-java-proto
 * ({@link KindMessages}); they are parsed as {@link DynamicMessage}s over the artifact's descriptors rather than with
 * its generated classes: those are pre-22 generated code, whose parsing protobuf-java 4 flags as open to a denial of
 * service (advisory GHSA-h4h5-3hr4-j3g2, a warning logged per type), and these bodies come from any client.
 */
final class ProtobufBodies {
    static final String CONTENT_TYPE = "application/vnd.kubernetes.protobuf";
    private static final byte[] MAGIC = {'k', '8', 's', 0};

    /** runtime.Unknown {typeMeta {apiVersion, kind}, raw, contentEncoding, contentType}. */
    private static final Descriptor UNKNOWN = Runtime.Unknown.getDescriptor();

    private ProtobufBodies() {
    }

    /**
     * The body as a JSON object with {@code apiVersion} and {@code kind}. When the envelope names another kind than
     * the URL's, only apiVersion and kind are returned, for the JSON path to refuse as it refuses such JSON.
     *
     * @throws ApiException 415 for kinds that have no protobuf message, 400 for bytes that are not a Kubernetes protobuf
     */
    static ObjectNode decode(byte[] body, KindInfo kind) {
        Descriptor type = KindMessages.of(kind).orElseThrow(() -> new ApiException(Statuses.unsupportedMediaType(
                CONTENT_TYPE + " (no protobuf message is known for " + kind.plural() + "; send " + kind.plural()
                        + " as JSON)", List.of("application/json", "application/yaml"))));
        return decode(body, type, kind.apiVersion(), kind.kind());
    }

    /** As {@link #decode(byte[], KindInfo)} for a message that is not a stored kind (TokenRequest). */
    static ObjectNode decode(byte[] body, Descriptor type, String expectedApiVersion, String expectedKind) {
        if (body.length < MAGIC.length || !Arrays.equals(body, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw new ApiException(Statuses.badRequest("the body is not a Kubernetes protobuf message"));
        }
        try {
            Message unknown = DynamicMessage.parseFrom(UNKNOWN,
                    ByteString.copyFrom(body, MAGIC.length, body.length - MAGIC.length));
            Message typeMeta = (Message) field(unknown, "typeMeta");
            String apiVersion = orElse((String) field(typeMeta, "apiVersion"), expectedApiVersion);
            String kindName = orElse((String) field(typeMeta, "kind"), expectedKind);
            ObjectNode out = Json.object();
            out.put("apiVersion", apiVersion);
            out.put("kind", kindName);
            if (!apiVersion.equals(expectedApiVersion) || !kindName.equals(expectedKind)) {
                return out;
            }
            String encoding = (String) field(unknown, "contentEncoding");
            if (!encoding.isEmpty()) {
                throw new ApiException(Statuses.badRequest("unsupported protobuf content encoding " + encoding));
            }
            Message object = DynamicMessage.parseFrom(type, (ByteString) field(unknown, "raw"));
            out.setAll(ProtobufJson.object(object));
            return out;
        } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
            throw new ApiException(Statuses.badRequest("cannot decode the protobuf body: " + e.getMessage()));
        }
    }

    /**
     * A DeleteOptions body (Helm deletes its release Secrets with one) as the JSON a client would have sent.
     *
     * @throws ApiException 400 for bytes that are not a Kubernetes protobuf DeleteOptions
     */
    static ObjectNode decodeDeleteOptions(byte[] body) {
        if (body.length < MAGIC.length || !Arrays.equals(body, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw new ApiException(Statuses.badRequest("the body is not a Kubernetes protobuf message"));
        }
        try {
            Message unknown = DynamicMessage.parseFrom(UNKNOWN,
                    ByteString.copyFrom(body, MAGIC.length, body.length - MAGIC.length));
            Message options = DynamicMessage.parseFrom(io.kubernetes.client.proto.Meta.DeleteOptions.getDescriptor(),
                    (ByteString) field(unknown, "raw"));
            return ProtobufJson.object(options);
        } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
            throw new ApiException(Statuses.badRequest("cannot decode the protobuf body: " + e.getMessage()));
        }
    }

    private static Object field(Message m, String name) {
        return m.getField(m.getDescriptorForType().findFieldByName(name));
    }

    private static String orElse(String value, String otherwise) {
        return value.isEmpty() ? otherwise : value;
    }
}
