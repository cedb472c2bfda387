package io.eventplane.gateway.http;

import io.eventplane.gateway.wire.WatchStream;

/** A response body that is a watch stream; written by {@link WatchBodyWriter} only. */
record WatchBody(WatchStream stream) {
}
