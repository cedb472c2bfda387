package io.eventplane.gateway.http;

import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import io.micronaut.http.server.netty.NettyServerCustomizer;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import jakarta.inject.Singleton;
import java.util.regex.Pattern;

/**
 * Lets Micronaut's WebSocket handling see only the upgrades it serves ({@link PodStreamSocket}): with
 * micronaut-websocket on the classpath Micronaut answers every other {@code Upgrade: websocket} request 404 itself,
 * and fabric8 opens watches with one (it needs our quick 200 to fall back to an HTTP watch, stack pitfall 8). So
 * before Micronaut's handler, any other upgrade request loses its {@code Upgrade} header and carries
 * {@code x-eventplane-upgrade} instead, which {@link io.eventplane.gateway.api.ApiRequest#isWebSocketUpgrade()} reads.
 */
@Singleton
public class StreamUpgrades implements BeanCreatedEventListener<NettyServerCustomizer.Registry> {
    private static final String MOVED_UPGRADE = io.eventplane.gateway.api.ApiRequest.MOVED_UPGRADE;
    private static final Pattern SERVED = Pattern.compile(
            "^/api/v1/namespaces/[^/]+/pods/[^/]+/(exec|attach|portforward)(\\?.*)?$");
    private static final String MICRONAUT_INBOUND = "micronaut-inbound-handler";

    @Override
    public NettyServerCustomizer.Registry onCreated(BeanCreatedEvent<NettyServerCustomizer.Registry> event) {
        event.getBean().register(new Customizer(null));
        return event.getBean();
    }

    private record Customizer(Channel channel) implements NettyServerCustomizer {
        @Override
        public NettyServerCustomizer specializeForChannel(Channel channel, ChannelRole role) {
            return new Customizer(channel);
        }

        @Override
        public void onStreamPipelineBuilt() {
            if (channel != null && channel.pipeline().get(MICRONAUT_INBOUND) != null
                    && channel.pipeline().get(HeaderMover.class) == null) {
                channel.pipeline().addBefore(MICRONAUT_INBOUND, "eventplane-upgrades", HeaderMover.INSTANCE);
            }
        }
    }

    @ChannelHandler.Sharable
    static final class HeaderMover extends ChannelInboundHandlerAdapter {
        static final HeaderMover INSTANCE = new HeaderMover();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest request) {
                String upgrade = request.headers().get(HttpHeaderNames.UPGRADE);
                if (upgrade != null && upgrade.toLowerCase(java.util.Locale.ROOT).contains("websocket")
                        && !SERVED.matcher(request.uri()).matches()) {
                    request.headers().remove(HttpHeaderNames.UPGRADE);
                    request.headers().set(MOVED_UPGRADE, upgrade);
                }
            }
            ctx.fireChannelRead(msg);
        }
    }
}
