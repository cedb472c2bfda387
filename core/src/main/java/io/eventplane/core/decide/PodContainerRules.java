package io.eventplane.core.decide;

import io.eventplane.core.codec.Quantity;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.StatusCause;
import io.eventplane.model.Container;
import io.eventplane.model.ContainerPort;
import io.eventplane.model.ExecAction;
import io.eventplane.model.GRPCAction;
import io.eventplane.model.HTTPGetAction;
import io.eventplane.model.HTTPHeader;
import io.eventplane.model.Lifecycle;
import io.eventplane.model.LifecycleHandler;
import io.eventplane.model.Probe;
import io.eventplane.model.ResourceRequirements;
import io.eventplane.model.SleepAction;
import io.eventplane.model.TCPSocketAction;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Each container's defaults and validation, as Kubernetes' SetDefaults_Container, SetDefaults_Probe and
 * validateContainers / validateInitContainers word them: name, image, restart policy, ports, resources, then the
 * probes and lifecycle handlers (POD-7.2: exactly one handler; POD-7.8: the timing defaults; POD-8.10: a regular init
 * container has no probes and no lifecycle; POD-9.6: a sidecar may have all of them).
 */
final class PodContainerRules {
    static final List<String> HTTP_SCHEMES = List.of("HTTP", "HTTPS");
    private static final Pattern HTTP_HEADER_NAME = Pattern.compile("[-A-Za-z0-9]+");
    private static final String NOT_FOR_INIT = "may not be set for init containers without restartPolicy=Always";
    private static final String ONE_HANDLER = "may not specify more than 1 handler type";
    private static final String PORT_RANGE = "must be between 1 and 65535, inclusive";
    private static final String NON_NEGATIVE = "must be greater than or equal to 0";

    private PodContainerRules() {
    }

    // ---- defaults

    /** The containers with Kubernetes' defaults filled in (termination message, pull policy, ports, requests, probes). */
    static List<Container> defaults(List<Container> containers) {
        if (containers == null) {
            return null;
        }
        List<Container> out = new ArrayList<>(containers.size());
        for (Container c : containers) {
            Container b = ObjectAccess.shallow(c);
            if (b.getTerminationMessagePath() == null) {
                b.setTerminationMessagePath("/dev/termination-log");
            }
            if (b.getTerminationMessagePolicy() == null) {
                b.setTerminationMessagePolicy("File");
            }
            if (b.getImagePullPolicy() == null && b.getImage() != null) {
                b.setImagePullPolicy(PodRules.imagePullPolicy(b.getImage()));
            }
            if (b.getPorts() != null) {
                List<ContainerPort> ports = new ArrayList<>();
                for (ContainerPort p : b.getPorts()) {
                    ports.add(p.getProtocol() == null ? ContainerPort.newBuilder(p).setProtocol("TCP").build() : p);
                }
                b.setPorts(ports);
            }
            if (b.getResources() != null && b.getResources().getLimits() != null) {
                // Requests default to limits for every resource that has a limit but no request.
                ResourceRequirements r = b.getResources();
                Map<String, String> requests = r.getRequests() == null ? new LinkedHashMap<>() : new LinkedHashMap<>(r.getRequests());
                r.getLimits().forEach(requests::putIfAbsent);
                b.setResources(ResourceRequirements.newBuilder(r).setRequests(requests).build());
            }
            b.setLivenessProbe(probeDefaults(b.getLivenessProbe()));
            b.setReadinessProbe(probeDefaults(b.getReadinessProbe()));
            b.setStartupProbe(probeDefaults(b.getStartupProbe()));
            if (b.getLifecycle() != null) {
                b.setLifecycle(Lifecycle.newBuilder(b.getLifecycle())
                        .setPostStart(handlerDefaults(b.getLifecycle().getPostStart()))
                        .setPreStop(handlerDefaults(b.getLifecycle().getPreStop())).build());
            }
            out.add(b);
        }
        return out;
    }

    /** POD-7.8: timeoutSeconds 1, periodSeconds 10, successThreshold 1, failureThreshold 3 when unset or 0. */
    static Probe probeDefaults(Probe probe) {
        if (probe == null) {
            return null;
        }
        Probe.Builder p = Probe.newBuilder(probe);
        if (unset(probe.getTimeoutSeconds())) {
            p.setTimeoutSeconds(1);
        }
        if (unset(probe.getPeriodSeconds())) {
            p.setPeriodSeconds(10);
        }
        if (unset(probe.getSuccessThreshold())) {
            p.setSuccessThreshold(1);
        }
        if (unset(probe.getFailureThreshold())) {
            p.setFailureThreshold(3);
        }
        p.setHttpGet(httpGetDefaults(probe.getHttpGet()));
        if (probe.getGrpc() != null && probe.getGrpc().getService() == null) {
            p.setGrpc(GRPCAction.newBuilder(probe.getGrpc()).setService("").build());
        }
        return p.build();
    }

    private static LifecycleHandler handlerDefaults(LifecycleHandler handler) {
        return handler == null ? null
                : LifecycleHandler.newBuilder(handler).setHttpGet(httpGetDefaults(handler.getHttpGet())).build();
    }

    /** POD-7.5: path "/" and scheme HTTP when unset. */
    private static HTTPGetAction httpGetDefaults(HTTPGetAction get) {
        if (get == null) {
            return null;
        }
        HTTPGetAction.Builder b = HTTPGetAction.newBuilder(get);
        if (get.getPath() == null || get.getPath().isEmpty()) {
            b.setPath("/");
        }
        if (get.getScheme() == null || get.getScheme().isEmpty()) {
            b.setScheme("HTTP");
        }
        return b.build();
    }

    private static boolean unset(Integer value) {
        return value == null || value == 0;
    }

    // ---- validation

    /**
     * The causes of invalid containers at {@code path}; {@code names} collects the names seen so far (unique across
     * app and init containers), {@code grace} is the pod's terminationGracePeriodSeconds (a sleep handler's bound).
     */
    static void validate(String path, List<Container> containers, Set<String> names, Long grace, boolean init,
                         List<StatusCause> causes) {
        if (containers == null) {
            return;
        }
        for (int i = 0; i < containers.size(); i++) {
            Container c = containers.get(i);
            String f = path + "[" + i + "]";
            Names.label(f + ".name", c.getName()).ifPresent(causes::add);
            if (c.getName() != null && !names.add(c.getName())) {
                causes.add(Causes.duplicate(f + ".name", c.getName())); // POD-1.7
            }
            if (c.getImage() == null || c.getImage().isBlank()) {
                causes.add(Causes.required(f + ".image"));
            }
            if (c.getRestartPolicy() != null) {
                if (!init) {
                    causes.add(Causes.forbidden(f + ".restartPolicy", "may not be set for non-init containers"));
                } else if (!"Always".equals(c.getRestartPolicy())) {
                    causes.add(Causes.notSupported(f + ".restartPolicy", c.getRestartPolicy(), List.of("Always")));
                }
            }
            ports(f, c.getPorts(), causes);
            resources(f, c.getResources(), causes);
            if (init && !"Always".equals(c.getRestartPolicy())) {
                forbidForInit(f + ".lifecycle", c.getLifecycle() != null, causes);
                forbidForInit(f + ".livenessProbe", c.getLivenessProbe() != null, causes);
                forbidForInit(f + ".readinessProbe", c.getReadinessProbe() != null, causes);
                forbidForInit(f + ".startupProbe", c.getStartupProbe() != null, causes);
            } else {
                lifecycle(f + ".lifecycle", c.getLifecycle(), grace, causes);
                probe(f + ".livenessProbe", c.getLivenessProbe(), true, causes);
                probe(f + ".readinessProbe", c.getReadinessProbe(), false, causes);
                probe(f + ".startupProbe", c.getStartupProbe(), true, causes);
            }
        }
    }

    private static void forbidForInit(String field, boolean set, List<StatusCause> causes) {
        if (set) {
            causes.add(Causes.forbidden(field, NOT_FOR_INIT));
        }
    }

    private static void ports(String f, List<ContainerPort> ports, List<StatusCause> causes) {
        if (ports == null) {
            return;
        }
        for (int j = 0; j < ports.size(); j++) {
            ContainerPort p = ports.get(j);
            String pf = f + ".ports[" + j + "]";
            if (p.getContainerPort() == null) {
                causes.add(Causes.required(pf + ".containerPort"));
            } else if (p.getContainerPort() < 1 || p.getContainerPort() > 65535) {
                causes.add(Causes.invalid(pf + ".containerPort", p.getContainerPort(), PORT_RANGE));
            }
            if (p.getProtocol() != null && !PodRules.PROTOCOLS.contains(p.getProtocol())) {
                causes.add(Causes.notSupported(pf + ".protocol", p.getProtocol(), PodRules.PROTOCOLS));
            }
        }
    }

    private static void resources(String f, ResourceRequirements r, List<StatusCause> causes) {
        if (r == null) {
            return;
        }
        quantities(f + ".resources.requests", r.getRequests(), causes);
        quantities(f + ".resources.limits", r.getLimits(), causes);
        if (r.getRequests() != null && r.getLimits() != null) {
            for (Map.Entry<String, String> e : r.getRequests().entrySet()) {
                String limit = r.getLimits().get(e.getKey());
                if (limit != null && parses(limit) && parses(e.getValue())
                        && Quantity.parse(e.getValue()).compareTo(Quantity.parse(limit)) > 0) {
                    causes.add(Causes.invalid(f + ".resources.requests", e.getValue(),
                            "must be less than or equal to " + e.getKey() + " limit of " + limit));
                }
            }
        }
    }

    private static void quantities(String path, Map<String, String> values, List<StatusCause> causes) {
        if (values == null) {
            return;
        }
        values.forEach((k, v) -> {
            if (!parses(v)) {
                causes.add(Causes.invalid(path + "[" + k + "]", v, "quantities must match the regular expression "
                        + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"));
            } else if (Quantity.parse(v).milliValue() < 0) {
                causes.add(Causes.invalid(path + "[" + k + "]", v, NON_NEGATIVE));
            }
        });
    }

    static boolean parses(String q) {
        try {
            Quantity.parse(q);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** A probe: one handler, non-negative timing fields; liveness and startup probes need successThreshold 1. */
    private static void probe(String f, Probe p, boolean successMustBeOne, List<StatusCause> causes) {
        if (p == null) {
            return;
        }
        handler(f, new Handler(p.getExec(), p.getHttpGet(), p.getTcpSocket(), p.getGrpc(), null), null, causes);
        nonNegative(f + ".initialDelaySeconds", p.getInitialDelaySeconds(), causes);
        nonNegative(f + ".timeoutSeconds", p.getTimeoutSeconds(), causes);
        nonNegative(f + ".periodSeconds", p.getPeriodSeconds(), causes);
        nonNegative(f + ".successThreshold", p.getSuccessThreshold(), causes);
        nonNegative(f + ".failureThreshold", p.getFailureThreshold(), causes);
        if (p.getTerminationGracePeriodSeconds() != null && p.getTerminationGracePeriodSeconds() <= 0) {
            causes.add(Causes.invalid(f + ".terminationGracePeriodSeconds", p.getTerminationGracePeriodSeconds(),
                    "must be greater than 0"));
        }
        int success = p.getSuccessThreshold() == null ? 1 : p.getSuccessThreshold();
        if (successMustBeOne && success != 1) {
            causes.add(Causes.invalid(f + ".successThreshold", success, "must be 1"));
        }
        if (!successMustBeOne && p.getTerminationGracePeriodSeconds() != null) {
            causes.add(Causes.invalid(f + ".terminationGracePeriodSeconds", p.getTerminationGracePeriodSeconds(),
                    "must not be set for readinessProbes"));
        }
    }

    private static void lifecycle(String f, Lifecycle l, Long grace, List<StatusCause> causes) {
        if (l == null) {
            return;
        }
        for (String hook : List.of("postStart", "preStop")) {
            LifecycleHandler h = hook.equals("postStart") ? l.getPostStart() : l.getPreStop();
            if (h != null) {
                handler(f + "." + hook, new Handler(h.getExec(), h.getHttpGet(), h.getTcpSocket(), null, h.getSleep()),
                        grace, causes);
            }
        }
    }

    /** What a probe and a lifecycle hook share (Kubernetes' commonHandler): at most one of them may be set. */
    private record Handler(ExecAction exec, HTTPGetAction httpGet, TCPSocketAction tcpSocket, GRPCAction grpc,
                           SleepAction sleep) {
    }

    /** validateHandler: the first handler set is validated, each further one is Forbidden, none is Required. */
    private static void handler(String f, Handler h, Long grace, List<StatusCause> causes) {
        int handlers = 0;
        if (h.exec() != null) {
            handlers++;
            if (h.exec().getCommand() == null || h.exec().getCommand().isEmpty()) {
                causes.add(Causes.required(f + ".exec.command"));
            }
        }
        if (h.httpGet() != null) {
            if (handlers++ > 0) {
                causes.add(Causes.forbidden(f + ".httpGet", ONE_HANDLER));
            } else {
                httpGet(f + ".httpGet", h.httpGet(), causes);
            }
        }
        if (h.tcpSocket() != null) {
            if (handlers++ > 0) {
                causes.add(Causes.forbidden(f + ".tcpSocket", ONE_HANDLER));
            } else {
                port(f + ".tcpSocket.port", h.tcpSocket().getPort(), causes);
            }
        }
        if (h.grpc() != null) {
            if (handlers++ > 0) {
                causes.add(Causes.forbidden(f + ".grpc", ONE_HANDLER));
            } else {
                port(f + ".grpc.port", h.grpc().getPort(), causes);
            }
        }
        if (h.sleep() != null) {
            long seconds = h.sleep().getSeconds() == null ? 0 : h.sleep().getSeconds();
            if (handlers++ > 0) {
                causes.add(Causes.forbidden(f + ".sleep", ONE_HANDLER));
            } else if (grace != null && (seconds < 0 || seconds > grace)) {
                // PodLifecycleSleepActionAllowZero is on by default in v1.33: a zero sleep is allowed
                causes.add(Causes.invalid(f + ".sleep", seconds,
                        "must be non-negative and less than terminationGracePeriodSeconds (" + grace + ")"));
            }
        }
        if (handlers == 0) {
            causes.add(Causes.required(f, "must specify a handler type"));
        }
    }

    private static void httpGet(String f, HTTPGetAction get, List<StatusCause> causes) {
        if (get.getPath() == null || get.getPath().isEmpty()) {
            causes.add(Causes.required(f + ".path"));
        }
        port(f + ".port", get.getPort(), causes);
        String scheme = get.getScheme() == null ? "" : get.getScheme();
        if (!HTTP_SCHEMES.contains(scheme)) {
            causes.add(Causes.notSupported(f + ".scheme", scheme, HTTP_SCHEMES));
        }
        if (get.getHttpHeaders() != null) {
            for (HTTPHeader h : get.getHttpHeaders()) {
                String name = h.getName() == null ? "" : h.getName();
                if (!HTTP_HEADER_NAME.matcher(name).matches()) {
                    causes.add(Causes.invalid(f + ".httpHeaders", name, "a valid HTTP header must consist of "
                            + "alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is "
                            + "'[-A-Za-z0-9]+')"));
                }
            }
        }
    }

    /** ValidatePortNumOrName: a number in range or an IANA service name; a missing port is the number 0. */
    private static void port(String f, Object port, List<StatusCause> causes) {
        if (port == null || port instanceof Integer) {
            int n = port == null ? 0 : (Integer) port;
            if (n < 1 || n > 65535) {
                causes.add(Causes.invalid(f, n, PORT_RANGE));
            }
        } else {
            String name = port.toString();
            ServiceValidation.portName(name).forEach(m -> causes.add(Causes.invalid(f, name, m)));
        }
    }

    private static void nonNegative(String f, Integer value, List<StatusCause> causes) {
        if (value != null && value < 0) {
            causes.add(Causes.invalid(f, value, NON_NEGATIVE));
        }
    }
}
