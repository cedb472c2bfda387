package io.eventplane.gateway.exec;

import io.eventplane.client.ClusterView;
import io.eventplane.core.container.ContainerEnvironment;
import io.eventplane.core.container.ContainerShape;
import io.eventplane.core.container.ExecResponse;
import io.eventplane.core.container.Shell;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.gateway.auth.authn.ServiceAccountTokens;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.KubeStatus;
import io.eventplane.gateway.wire.Statuses;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.Pod;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;

/**
 * pods/exec, pods/attach and pods/portforward: opens the stream a WebSocket asks for against the simulated
 * container. The container's environment is resolved here, in the gateway, from the pod and the ConfigMaps,
 * Secrets, Services and Node its view holds (as container logs are computed here): node-sim's part is the
 * container's running state it writes into the pod's status, which decides whether there is anything to reach.
 * A refusal goes on the error channel as the Status kube-apiserver or the kubelet would answer.
 */
public final class ContainerStreams {
    private final ClusterView view;
    private final Clock clock;
    private final ExecutorService threads;
    private final ServiceAccountTokens tokens;

    public ContainerStreams(ClusterView view, Clock clock, ExecutorService threads) {
        this(view, clock, threads, null);
    }

    /**
     * As above; {@code tokens} signs the tokens of projected ServiceAccount token volumes (as the kubelet gets them
     * from TokenRequest); null shows a placeholder.
     */
    public ContainerStreams(ClusterView view, Clock clock, ExecutorService threads, ServiceAccountTokens tokens) {
        this.view = view;
        this.clock = clock;
        this.threads = threads;
        this.tokens = tokens;
    }

    public StreamSession open(String subresource, String namespace, String name, Map<String, List<String>> params,
                              StreamSink sink) {
        return open(subresource, namespace, name, params, Channels.V5, sink);
    }

    /** A stream in {@code protocol}: the channel protocol, or SPDY for kubectl's port-forward. */
    public StreamSession open(String subresource, String namespace, String name, Map<String, List<String>> params,
                              String protocol, StreamSink sink) {
        try {
            Pod pod = pod(namespace, name).orElseThrow(() -> new ApiException(Statuses.notFound(Kinds.POD, name)));
            if (Channels.SPDY_PORT_FORWARD.equals(protocol)) {
                if (!"portforward".equals(subresource)) {
                    throw new ApiException(Statuses.badRequest("SPDY is served for pods/portforward only"));
                }
                requireRunning(pod);
                return new SpdyPortForwardSession(pod, sink);
            }
            return switch (subresource) {
                case "exec" -> exec(pod, params, sink);
                case "attach" -> attach(pod, params, sink);
                case "portforward" -> portForward(pod, params, sink);
                default -> throw new ApiException(Statuses.noSuchResource());
            };
        } catch (ApiException e) {
            if (Channels.SPDY_PORT_FORWARD.equals(protocol)) {
                sink.close(); // SPDY has no error channel; StreamRefusals answered before the handshake but for a race
                return idle();
            }
            return refuse(sink, e.status());
        } catch (IOException e) {
            sink.close();
            return idle();
        }
    }

    /**
     * Refuses, as kube-apiserver does before it upgrades the connection, a stream to a missing pod, an exec without
     * a command, a container that is not there or not running, or a port-forward to a pod not running.
     *
     * @throws ApiException the refusal (404, 400, 500)
     */
    public void check(String subresource, String namespace, String name, Map<String, List<String>> params) {
        Pod pod = pod(namespace, name).orElseThrow(() -> new ApiException(Statuses.notFound(Kinds.POD, name)));
        switch (subresource) {
            case "exec" -> {
                requireCommand(params);
                runningContainer(pod, params);
            }
            case "attach" -> runningContainer(pod, params);
            case "portforward" -> requireRunning(pod);
            default -> throw new ApiException(Statuses.noSuchResource());
        }
    }

    private StreamSession exec(Pod pod, Map<String, List<String>> params, StreamSink sink) {
        List<String> command = requireCommand(params);
        ContainerShape container = runningContainer(pod, params);
        return new ShellSession(shell(pod, container), command, flag(params, "stdin"), flag(params, "tty"), sink,
                threads);
    }

    private static List<String> requireCommand(Map<String, List<String>> params) {
        List<String> command = params.getOrDefault("command", List.of());
        if (command.isEmpty()) {
            throw new ApiException(Statuses.badRequest("you must specify at least 1 command"));
        }
        return command;
    }

    private StreamSession attach(Pod pod, Map<String, List<String>> params, StreamSink sink) {
        ContainerShape container = runningContainer(pod, params);
        if (container.kind() == ContainerShape.Kind.EPHEMERAL || container.stdin()) {
            // An interactive process (a debug container, `kubectl run -i`): the attach talks to it.
            return new ShellSession(shell(pod, container), container.process(), flag(params, "stdin"),
                    flag(params, "tty"), sink, threads);
        }
        String namespace = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        return new LogAttachSession(() -> pod(namespace, name), container.name(), clock, sink, threads);
    }

    private StreamSession portForward(Pod pod, Map<String, List<String>> params, StreamSink sink) throws IOException {
        List<Integer> ports = new ArrayList<>();
        for (String value : params.getOrDefault("ports", List.of())) {
            for (String p : value.split(",")) {
                try {
                    int port = Integer.parseInt(p.trim());
                    if (port < 1 || port > 65535) {
                        throw new NumberFormatException();
                    }
                    ports.add(port);
                } catch (NumberFormatException e) {
                    throw new ApiException(Statuses.badRequest("unable to parse \"" + p + "\" as a port: "
                            + "invalid port"));
                }
            }
        }
        if (ports.isEmpty()) {
            throw new ApiException(Statuses.badRequest("at least 1 port must be specified"));
        }
        requireRunning(pod);
        return new PortForwardSession(pod, ports, sink);
    }

    /** Port-forwarding reaches a pod's network namespace, which only a running pod has. */
    private static void requireRunning(Pod pod) {
        if (!"Running".equals(pod.getStatus() == null ? null : pod.getStatus().getPhase())) {
            throw new ApiException(Statuses.badRequest("pod " + pod.getMetadata().getName() + " is not running"));
        }
    }

    private Shell shell(Pod pod, ContainerShape container) {
        ContainerEnvironment environment = ContainerEnvironment.resolve(pod, container, new ViewSources(view, tokens, clock));
        return new Shell(environment, ExecResponse.declared(pod, container.name()));
    }

    /** The container the request names (or the pod's only one), which must be running. */
    static ContainerShape runningContainer(Pod pod, Map<String, List<String>> params) {
        String podName = pod.getMetadata().getName();
        String name = first(params, "container");
        List<ContainerShape> all = ContainerShape.all(pod);
        if (name == null || name.isEmpty()) {
            List<String> app = all.stream().filter(c -> c.kind() == ContainerShape.Kind.APP)
                    .map(ContainerShape::name).toList();
            if (app.size() != 1) {
                throw new ApiException(Statuses.badRequest("a container name must be specified for pod " + podName
                        + ", choose one of: [" + String.join(" ", app) + "]"));
            }
            name = app.get(0);
        }
        String wanted = name;
        ContainerShape container = all.stream().filter(c -> c.name().equals(wanted)).findFirst()
                .orElseThrow(() -> new ApiException(Statuses.badRequest("container " + wanted
                        + " is not valid for pod " + podName)));
        if (pod.getSpec().getNodeName() == null || pod.getSpec().getNodeName().isEmpty()) {
            throw new ApiException(Statuses.badRequest("pod " + podName + " does not have a host assigned"));
        }
        if (!running(pod, wanted)) {
            throw new ApiException(Statuses.internal("unable to upgrade connection: container not found (\""
                    + wanted + "\")"));
        }
        return container;
    }

    private static boolean running(Pod pod, String container) {
        var status = pod.getStatus();
        if (status == null) {
            return false;
        }
        for (List<ContainerStatus> list : java.util.Arrays.asList(status.getContainerStatuses(),
                status.getInitContainerStatuses(), status.getEphemeralContainerStatuses())) {
            if (list == null) {
                continue;
            }
            for (ContainerStatus s : list) {
                if (container.equals(s.getName())) {
                    return s.getState() != null && s.getState().getRunning() != null;
                }
            }
        }
        return false;
    }

    private Optional<Pod> pod(String namespace, String name) {
        return view.get(Kinds.POD.kind(), namespace, name).map(c -> (Pod) c.getObject());
    }

    /** A stream refused before it starts (authentication, authorization): the Status on the error channel, closed. */
    public static StreamSession refuse(StreamSink sink, KubeStatus status) {
        try {
            sink.send(Channels.frame(Channels.ERROR, Channels.failure(status)));
        } catch (IOException e) {
            // the client is gone already
        }
        sink.close();
        return idle();
    }

    private static StreamSession idle() {
        return new StreamSession() {
            @Override
            public void receive(byte[] message) {
            }

            @Override
            public void closed() {
            }
        };
    }

    private static boolean flag(Map<String, List<String>> params, String name) {
        String v = first(params, name);
        return v != null && (v.equals("true") || v.equals("1"));
    }

    private static String first(Map<String, List<String>> params, String name) {
        List<String> values = params.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }
}
