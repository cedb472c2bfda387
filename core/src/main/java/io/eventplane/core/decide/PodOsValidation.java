package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import io.eventplane.model.Container;
import io.eventplane.model.EphemeralContainer;
import io.eventplane.model.PodSecurityContext;
import io.eventplane.model.PodSpec;
import io.eventplane.model.SecurityContext;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Kubernetes' pod validation that depends on the pod's operating system and user namespace, as kube-apiserver words
 * it: {@code spec.os.name} (POD-19.1) and the fields a windows or linux pod may not set, {@code hostUsers: false}
 * without host namespaces (POD-20.7), and {@code lifecycle.stopSignal}, which needs {@code spec.os.name} and a signal
 * of that OS (POD-12.7, POD-19.4; the ContainerStopSignals gate taken as on), and Windows HostProcess pods (POD-1.12).
 */
final class PodOsValidation {
    static final List<String> OS_NAMES = List.of("linux", "windows");
    static final List<String> WINDOWS_STOP_SIGNALS = List.of("SIGKILL", "SIGTERM");
    /** The signals a linux container may be stopped with, sorted as Go's sets.List sorts them. */
    static final List<String> LINUX_STOP_SIGNALS;

    static {
        TreeSet<String> s = new TreeSet<>(List.of("SIGABRT", "SIGALRM", "SIGBUS", "SIGCHLD", "SIGCLD", "SIGCONT",
                "SIGFPE", "SIGHUP", "SIGILL", "SIGINT", "SIGIO", "SIGIOT", "SIGKILL", "SIGPIPE", "SIGPOLL", "SIGPROF",
                "SIGPWR", "SIGQUIT", "SIGSEGV", "SIGSTKFLT", "SIGSTOP", "SIGSYS", "SIGTERM", "SIGTRAP", "SIGTSTP",
                "SIGTTIN", "SIGTTOU", "SIGURG", "SIGUSR1", "SIGUSR2", "SIGVTALRM", "SIGWINCH", "SIGXCPU", "SIGXFSZ",
                "SIGRTMIN", "SIGRTMAX"));
        for (int i = 1; i <= 15; i++) {
            s.add("SIGRTMIN+" + i);
        }
        for (int i = 1; i <= 14; i++) {
            s.add("SIGRTMAX-" + i);
        }
        LINUX_STOP_SIGNALS = List.copyOf(s);
    }

    private static final String NOT_FOR_WINDOWS = "cannot be set for a windows pod";
    private static final String USERNS = "when `pod.Spec.HostUsers` is false";

    private PodOsValidation() {
    }

    /** Each container's stop signal, checked against the pod's OS (validateLifecycle's part, in container order). */
    static void stopSignals(PodSpec spec, List<StatusCause> causes) {
        String os = spec.getOs() == null ? null : spec.getOs().getName();
        stopSignals("spec.containers", spec.getContainers(), spec.getOs() != null, os, causes);
        stopSignals("spec.initContainers", spec.getInitContainers(), spec.getOs() != null, os, causes);
    }

    private static void stopSignals(String path, List<Container> containers, boolean osSet, String os,
                                    List<StatusCause> causes) {
        if (containers == null) {
            return;
        }
        for (int i = 0; i < containers.size(); i++) {
            Container c = containers.get(i);
            String signal = c.getLifecycle() == null ? null : c.getLifecycle().getStopSignal();
            if (signal == null) {
                continue;
            }
            String f = path + "[" + i + "].lifecycle.stopSignal";
            if (!osSet) {
                causes.add(Causes.forbidden(f, "may not be set for containers with empty `spec.os.name`"));
            } else if ("windows".equals(os) && !WINDOWS_STOP_SIGNALS.contains(signal)) {
                causes.add(Causes.notSupported(f, signal, WINDOWS_STOP_SIGNALS));
            } else if ("linux".equals(os) && !LINUX_STOP_SIGNALS.contains(signal)) {
                causes.add(Causes.notSupported(f, signal, LINUX_STOP_SIGNALS));
            }
        }
    }

    /**
     * validateWindowsHostProcessPod (POD-1.12): a pod with any HostProcess container (its own windowsOptions or the
     * pod's) must have only HostProcess containers and hostNetwork; a container may not contradict the pod's value.
     * Privileged containers are allowed by this cluster's policy, as they are with {@code --allow-privileged}.
     */
    static void windowsHostProcess(PodSpec spec, List<StatusCause> causes) {
        PodSecurityContext p = spec.getSecurityContext();
        Boolean podHostProcess = p == null || p.getWindowsOptions() == null ? null : p.getWindowsOptions().getHostProcess();
        int containers = 0;
        int hostProcess = 0;
        for (ContainerContext c : containers(spec)) {
            containers++;
            Boolean own = c.context() == null || c.context().getWindowsOptions() == null ? null
                    : c.context().getWindowsOptions().getHostProcess();
            if (podHostProcess != null && own != null && !podHostProcess.equals(own)) {
                causes.add(Causes.invalid(c.path() + ".securityContext.windowsOptions.hostProcess", own,
                        "pod hostProcess value must be identical if both are specified, was " + podHostProcess));
            }
            if (Boolean.TRUE.equals(own) || (own == null && Boolean.TRUE.equals(podHostProcess))) {
                hostProcess++;
            }
        }
        if (hostProcess > 0) {
            if (hostProcess != containers) {
                causes.add(Causes.invalid("spec", "", "If pod contains any hostProcess containers then all containers "
                        + "must be HostProcess containers"));
            }
            if (!Boolean.TRUE.equals(spec.getHostNetwork())) {
                causes.add(Causes.invalid("spec.hostNetwork", false,
                        "hostNetwork must be true if pod contains any hostProcess containers"));
            }
        }
    }

    /** validateHostUsers, then validateOS and the OS's own rules (ValidatePodSpec's last steps). */
    static void hostUsersAndOs(PodSpec spec, List<StatusCause> causes) {
        if (Boolean.FALSE.equals(spec.getHostUsers())) {
            // Kubernetes names the last two with capitals: its internal field names
            if (Boolean.TRUE.equals(spec.getHostNetwork())) {
                causes.add(Causes.forbidden("spec.hostNetwork", USERNS));
            }
            if (Boolean.TRUE.equals(spec.getHostPID())) {
                causes.add(Causes.forbidden("spec.HostPID", USERNS));
            }
            if (Boolean.TRUE.equals(spec.getHostIPC())) {
                causes.add(Causes.forbidden("spec.HostIPC", USERNS));
            }
        }
        if (spec.getOs() == null) {
            return;
        }
        String name = spec.getOs().getName();
        if (name == null || name.isEmpty()) {
            causes.add(Causes.required("spec.os.name", "cannot be empty"));
        } else if (!OS_NAMES.contains(name)) {
            causes.add(Causes.notSupported("spec.os", name, OS_NAMES));
        } else if (name.equals("linux")) {
            linux(spec, causes);
        } else {
            windows(spec, causes);
        }
    }

    private static void linux(PodSpec spec, List<StatusCause> causes) {
        String forbidden = "windows options cannot be set for a linux pod";
        if (spec.getSecurityContext() != null && spec.getSecurityContext().getWindowsOptions() != null) {
            causes.add(Causes.forbidden("spec.securityContext.windowsOptions", forbidden));
        }
        for (ContainerContext c : containers(spec)) {
            if (c.context() != null && c.context().getWindowsOptions() != null) {
                causes.add(Causes.forbidden(c.path() + ".securityContext.windowsOptions", forbidden));
            }
        }
    }

    private static void windows(PodSpec spec, List<StatusCause> causes) {
        PodSecurityContext p = spec.getSecurityContext();
        String sc = "spec.securityContext.";
        if (p != null) {
            forbidIf(p.getAppArmorProfile() != null, sc + "appArmorProfile", causes);
            forbidIf(p.getSeLinuxOptions() != null, sc + "seLinuxOptions", causes);
        }
        // Kubernetes keeps these three in its internal pod security context, so they are checked in its turn
        forbidIf(spec.getHostUsers() != null, "spec.hostUsers", causes);
        forbidIf(Boolean.TRUE.equals(spec.getHostPID()), "spec.hostPID", causes);
        forbidIf(Boolean.TRUE.equals(spec.getHostIPC()), "spec.hostIPC", causes);
        if (p != null) {
            forbidIf(p.getSeccompProfile() != null, sc + "seccompProfile", causes);
            forbidIf(p.getFsGroup() != null, sc + "fsGroup", causes);
            forbidIf(p.getFsGroupChangePolicy() != null, sc + "fsGroupChangePolicy", causes);
            forbidIf(p.getSysctls() != null && !p.getSysctls().isEmpty(), sc + "sysctls", causes);
        }
        forbidIf(spec.getShareProcessNamespace() != null, "spec.shareProcessNamespace", causes);
        if (p != null) {
            forbidIf(p.getRunAsUser() != null, sc + "runAsUser", causes);
            forbidIf(p.getRunAsGroup() != null, sc + "runAsGroup", causes);
            forbidIf(p.getSupplementalGroups() != null, sc + "supplementalGroups", causes);
            forbidIf(p.getSupplementalGroupsPolicy() != null, sc + "supplementalGroupsPolicy", causes);
            forbidIf(p.getSeLinuxChangePolicy() != null, sc + "seLinuxChangePolicy", causes);
        }
        for (ContainerContext c : containers(spec)) {
            SecurityContext s = c.context();
            if (s == null) {
                continue;
            }
            String f = c.path() + ".securityContext.";
            forbidIf(s.getAppArmorProfile() != null, f + "appArmorProfile", causes);
            forbidIf(s.getSeLinuxOptions() != null, f + "seLinuxOptions", causes);
            forbidIf(s.getSeccompProfile() != null, f + "seccompProfile", causes);
            forbidIf(s.getCapabilities() != null, f + "capabilities", causes);
            forbidIf(s.getReadOnlyRootFilesystem() != null, f + "readOnlyRootFilesystem", causes);
            forbidIf(s.getPrivileged() != null, f + "privileged", causes);
            forbidIf(s.getAllowPrivilegeEscalation() != null, f + "allowPrivilegeEscalation", causes);
            forbidIf(s.getProcMount() != null, f + "procMount", causes);
            forbidIf(s.getRunAsUser() != null, f + "runAsUser", causes);
            forbidIf(s.getRunAsGroup() != null, f + "runAsGroup", causes);
        }
    }

    private static void forbidIf(boolean set, String field, List<StatusCause> causes) {
        if (set) {
            causes.add(Causes.forbidden(field, NOT_FOR_WINDOWS));
        }
    }

    private record ContainerContext(String path, SecurityContext context) {
    }

    /** Every container's security context with its path, in Kubernetes' visiting order: init, app, ephemeral. */
    private static List<ContainerContext> containers(PodSpec spec) {
        List<ContainerContext> out = new ArrayList<>();
        add(out, "spec.initContainers", spec.getInitContainers());
        add(out, "spec.containers", spec.getContainers());
        List<EphemeralContainer> ephemeral = spec.getEphemeralContainers();
        if (ephemeral != null) {
            for (int i = 0; i < ephemeral.size(); i++) {
                out.add(new ContainerContext("spec.ephemeralContainers[" + i + "]", ephemeral.get(i).getSecurityContext()));
            }
        }
        return out;
    }

    private static void add(List<ContainerContext> out, String path, List<Container> containers) {
        if (containers != null) {
            for (int i = 0; i < containers.size(); i++) {
                out.add(new ContainerContext(path + "[" + i + "]", containers.get(i).getSecurityContext()));
            }
        }
    }
}
