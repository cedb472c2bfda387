package io.eventplane.gateway.console.model;

/**
 * One core/v1 Event: what happened to which object, when last seen and how often.
 *
 * @param lastSeen epoch milliseconds of lastTimestamp, eventTime or creation, whichever is known first
 */
public record EventRow(String key, long resourceVersion, String namespace, String name, String type, String reason, String message,
                       String objectKind, String objectNamespace, String objectName, String objectUid, int count,
                       long lastSeen, String source) {
}
