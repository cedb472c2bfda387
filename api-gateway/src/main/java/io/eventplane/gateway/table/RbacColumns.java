package io.eventplane.gateway.table;

import static io.eventplane.gateway.table.KindColumns.age;
import static io.eventplane.gateway.table.KindColumns.name;
import static io.eventplane.gateway.table.KindColumns.row;

import io.eventplane.core.codec.KubeTime;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.gateway.table.Columns.Column;
import io.eventplane.model.rbac.ClusterRoleBinding;
import io.eventplane.model.rbac.RoleBinding;
import io.eventplane.model.rbac.RoleRef;
import io.eventplane.model.rbac.Subject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** kubectl's printers for Role, ClusterRole, RoleBinding and ClusterRoleBinding (pkg/printers/internalversion). */
final class RbacColumns {
    private RbacColumns() {
    }

    /** NAME CREATED AT, for Role and ClusterRole. */
    static final Columns ROLE = new KindColumns(List.of(Column.nameColumn(),
            new Column("Created At", "date", "", "CreationTimestamp is a timestamp representing the server time when "
                    + "this object was created.", 0)), (o, now) -> {
                Instant created = ObjectAccess.meta(o).getCreationTimestamp();
                return row(name(o), created == null ? "" : KubeTime.formatTime(created));
            });

    /** NAME ROLE AGE, and with -o wide USERS GROUPS SERVICEACCOUNTS; the role as Kind/name. */
    static final Columns BINDING = new KindColumns(List.of(Column.nameColumn(),
            Column.of("Role", "RoleRef can reference a Role in the current namespace or a ClusterRole in the global "
                    + "namespace."),
            Column.ageColumn(),
            Column.wide("Users", "Users in the roleBinding"),
            Column.wide("Groups", "Groups in the roleBinding"),
            Column.wide("ServiceAccounts", "ServiceAccounts in the roleBinding")), (o, now) -> {
                RoleRef ref = o instanceof RoleBinding b ? b.getRoleRef() : ((ClusterRoleBinding) o).getRoleRef();
                List<Subject> subjects = o instanceof RoleBinding b ? b.getSubjects()
                        : ((ClusterRoleBinding) o).getSubjects();
                List<String> users = new ArrayList<>();
                List<String> groups = new ArrayList<>();
                List<String> accounts = new ArrayList<>();
                for (Subject s : subjects == null ? List.<Subject>of() : subjects) {
                    switch (Objects.toString(s.getKind(), "")) {
                        case "User" -> users.add(s.getName());
                        case "Group" -> groups.add(s.getName());
                        case "ServiceAccount" -> accounts.add(Objects.toString(s.getNamespace(), "") + "/" + s.getName());
                        default -> { }
                    }
                }
                String role = ref == null ? "/" : Objects.toString(ref.getKind(), "") + "/"
                        + Objects.toString(ref.getName(), "");
                return row(name(o), role, age(o, now), String.join(", ", users), String.join(", ", groups),
                        String.join(", ", accounts));
            });
}
