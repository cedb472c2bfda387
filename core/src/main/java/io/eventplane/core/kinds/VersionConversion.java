package io.eventplane.core.kinds;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.avro.specific.SpecificRecord;

/**
 * How a kind served at another version than the one stored converts, as kube-apiserver's conversion functions do
 * (autoscaling/v1 HorizontalPodAutoscaler over the stored autoscaling/v2 one). Works on the objects' JSON without
 * {@code apiVersion} and {@code kind}; the codec decodes a served body as {@link #servedType()} first, so its errors
 * and unknown fields are reported in the served version's terms and {@link #toStored} sees well-formed JSON only.
 */
public interface VersionConversion {

    /** The record the served version's JSON decodes into: its validation and its OpenAPI schema. */
    Class<? extends SpecificRecord> servedType();

    /** The stored object as the served version shows it. {@code stored} is not modified. */
    ObjectNode toServed(ObjectNode stored);

    /** A served object as the stored kind holds it. {@code served} is not modified. */
    ObjectNode toStored(ObjectNode served);
}
