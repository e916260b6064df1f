"""The SQLite index MindSpore keeps beside each shard file (`<shard>.db`): table SHARD_NAME (the
shard's file name, which MindSpore's reader checks) and table INDEXES (one row per record: its
raw and blob page and offsets, and the values of the index fields as `<field>_0` columns)."""
from __future__ import annotations

import sqlite3

_SQL_TYPES = {"int32": "INTEGER", "int64": "INTEGER", "float32": "REAL", "float64": "REAL",
              "string": "TEXT"}
_COLUMNS = ("ROW_ID", "ROW_GROUP_ID", "PAGE_ID_RAW", "PAGE_OFFSET_RAW", "PAGE_OFFSET_RAW_END",
            "PAGE_ID_BLOB", "PAGE_OFFSET_BLOB", "PAGE_OFFSET_BLOB_END")


def write_index(path: str, shard_name: str, schema: dict, index_fields: list[str],
                rows: list[tuple], values: list[dict]) -> None:
    """Create the index database at `path` (a new file): `rows` are tuples in _COLUMNS order,
    `values` the index fields' values of each row."""
    create = ("CREATE TABLE INDEXES(  ROW_ID               INT  NOT NULL, PAGE_ID_RAW          "
              "INT  NOT NULL, PAGE_OFFSET_RAW      INT  NOT NULL, PAGE_OFFSET_RAW_END  INT  NOT "
              "NULL, ROW_GROUP_ID         INT  NOT NULL, PAGE_ID_BLOB         INT  NOT NULL, "
              "PAGE_OFFSET_BLOB     INT  NOT NULL, PAGE_OFFSET_BLOB_END INT  NOT NULL")
    for i, field in enumerate(index_fields):
        create += f",INC_{i} INT, {field}_0 {_SQL_TYPES[schema[field]['type']]}"
    create += ", PRIMARY KEY(ROW_ID" + "".join(f",INC_{i}" for i in range(len(index_fields)))
    create += "));"
    columns = list(_COLUMNS)
    for i, field in enumerate(index_fields):
        columns += [f"INC_{i}", f"{field}_0"]
    insert = (f"INSERT INTO INDEXES ({','.join(columns)}) VALUES "
              f"({','.join('?' * len(columns))})")
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("BEGIN")
        connection.execute(create)
        connection.execute("CREATE TABLE SHARD_NAME(NAME TEXT NOT NULL);")
        connection.execute("INSERT INTO SHARD_NAME (NAME) VALUES (?)", (shard_name,))
        connection.executemany(insert, [
            (*row, *[v for field in index_fields for v in (0, value[field])])
            for row, value in zip(rows, values)])
        connection.execute("COMMIT")
    finally:
        connection.close()
