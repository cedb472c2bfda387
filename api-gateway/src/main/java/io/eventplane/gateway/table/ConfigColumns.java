package io.eventplane.gateway.table;

import static io.eventplane.gateway.table.KindColumns.age;
import static io.eventplane.gateway.table.KindColumns.name;
import static io.eventplane.gateway.table.KindColumns.nz;
import static io.eventplane.gateway.table.KindColumns.row;

import io.eventplane.gateway.table.Columns.Column;
import io.eventplane.model.ConfigMap;
import io.eventplane.model.Secret;
import io.eventplane.model.ServiceAccount;
import java.util.List;

/** kubectl's printers for ConfigMap, Secret and ServiceAccount (pkg/printers/internalversion). */
final class ConfigColumns {
    private ConfigColumns() {
    }

    /** NAME DATA AGE: data counts text and binary keys. */
    static final Columns CONFIG_MAP = new KindColumns(List.of(Column.nameColumn(),
            Column.of("Data", "Data contains the configuration data. Each key must consist of alphanumeric characters, "
                    + "'-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field."),
            Column.ageColumn()), (o, now) -> {
                ConfigMap cm = (ConfigMap) o;
                long keys = (cm.getData() == null ? 0 : cm.getData().size())
                        + (cm.getBinaryData() == null ? 0 : cm.getBinaryData().size());
                return row(name(cm), keys, age(cm, now));
            });

    /** NAME TYPE DATA AGE. */
    static final Columns SECRET = new KindColumns(List.of(Column.nameColumn(),
            Column.of("Type", "Used to facilitate programmatic handling of secret data."),
            Column.of("Data", "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' "
                    + "or '.'."),
            Column.ageColumn()), (o, now) -> {
                Secret s = (Secret) o;
                return row(name(s), nz(s.getType()), (long) (s.getData() == null ? 0 : s.getData().size()), age(s, now));
            });

    /** NAME SECRETS AGE. */
    static final Columns SERVICE_ACCOUNT = new KindColumns(List.of(Column.nameColumn(),
            Column.of("Secrets", "Secrets is a list of the secrets in the same namespace that pods running using this "
                    + "ServiceAccount are allowed to use."),
            Column.ageColumn()), (o, now) -> {
                ServiceAccount sa = (ServiceAccount) o;
                return row(name(sa), (long) (sa.getSecrets() == null ? 0 : sa.getSecrets().size()), age(sa, now));
            });
}
