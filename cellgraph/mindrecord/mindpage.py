"""`mindspore.mindrecord.MindPage`: the rows of a MindRecord dataset grouped by the values of
one index field (a category field), read a page at a time, through the SQLite index beside
each shard file (index.py)."""
from __future__ import annotations

import contextlib
import json
import os
import sqlite3

from .checks import check_parameter, pipeline_error
from .common.exceptions import MRMDefineCategoryError, ParamTypeError, ParamValueError
from .config import decrypt_inputs, release
from .filereader import _open_files

__all__ = ["MindPage"]


class MindPage:
    """`MindPage(file_name, num_consumer=4)`: `file_name` is one file of a dataset (its shards
    are all read) or a list of files. Set `category_field` to one of `candidate_fields` (the
    dataset's index fields), then `read_category_info()` lists its values and
    `read_at_page_by_id` / `read_at_page_by_name` read the rows of one value, `num_row` a
    page."""

    op = "MindPage"

    @check_parameter
    def __init__(self, file_name, num_consumer=4):
        if isinstance(file_name, list) and not file_name:
            raise ParamValueError("File path is not allowed None or empty!")
        self.num_consumer = num_consumer
        self._decrypted = []
        paths, self._decrypted = decrypt_inputs(file_name)
        try:
            self._shards = _open_files(paths, self.op)
        except BaseException:
            release(self._decrypted)
            raise
        self._schema = self._shards.schema
        fields = [f["index_field"] for f in self._shards.headers[0].get("index_fields") or []]
        self._candidate_fields = fields
        self._category_field = None
        self._categories = None

    def __del__(self):
        with contextlib.suppress(Exception):
            release(getattr(self, "_decrypted", []))

    @property
    def candidate_fields(self):
        """The fields rows can be grouped by (the dataset's index fields)."""
        return self._candidate_fields

    @property
    def category_field(self):
        """The field the rows are grouped by (None until set)."""
        return self._category_field

    @category_field.setter
    def category_field(self, category_field):
        if not category_field or not isinstance(category_field, str):
            raise ParamTypeError("category_fields", "str")
        if category_field not in self._candidate_fields:
            raise MRMDefineCategoryError(f"Field '{category_field}' is not a candidate "
                                         f"category field.")
        self._category_field = category_field
        self._categories = None

    def _need_field(self) -> str:
        if self._category_field is None:
            raise pipeline_error("Invalid data, category_field is not set, please set it "
                                  "with one of candidate_fields first.")
        return self._category_field

    def _query(self, sql: str, params=()) -> list[list]:
        """The rows `sql` gives on each shard's index, one list a shard."""
        out = []
        for path in self._shards.paths:
            db = path + ".db"
            if not os.path.isfile(db):
                raise pipeline_error(f"Invalid file, the index file of the mindrecord file "
                                      f"does not exist: {db}")
            connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
            try:
                out.append(connection.execute(sql, params).fetchall())
            except sqlite3.Error as e:
                raise pipeline_error(f"Failed to query the index file: {db}: {e}") from None
            finally:
                connection.close()
        return out

    def _category_list(self) -> list[tuple[str, int]]:
        """(name, count) of each value of the category field, by name as text (the values
        as SQLite writes them as text, merged over the shards)."""
        if self._categories is None:
            column = f'"{self._need_field()}_0"'
            counts: dict[str, int] = {}
            for rows in self._query(f"SELECT CAST({column} AS TEXT), COUNT(*) FROM INDEXES "
                                    f"GROUP BY {column}"):
                for name, count in rows:
                    name = "" if name is None else name
                    counts[name] = counts.get(name, 0) + count
            self._categories = sorted(counts.items(),
                                      key=lambda item: item[0].encode("utf-8"))
        return self._categories

    def read_category_info(self):
        """The values of the category field and their row counts, as a JSON string:
        {"categories": [{"count", "id", "name"}, ...], "key": "<field>_0"}."""
        categories = [{"count": count, "id": i, "name": name}
                      for i, (name, count) in enumerate(self._category_list())]
        return json.dumps({"categories": categories, "key": f"{self._need_field()}_0"},
                          separators=(",", ":"), ensure_ascii=False)

    def _page(self, name: str, count: int, page: int, num_row: int) -> list[dict]:
        if page * num_row >= count:
            raise pipeline_error(f"Invalid data, page no: {page}or page size: {num_row} is "
                                  f"invalid.")
        column = f'"{self._need_field()}_0"'
        matches = self._query(f"SELECT ROW_ID FROM INDEXES WHERE {column} = ? ORDER BY ROW_ID",
                              (name,))
        wanted = [(shard, row_id) for shard, rows in enumerate(matches) for (row_id,) in rows]
        return [self._shards.row(shard, row_id)
                for shard, row_id in wanted[page * num_row:(page + 1) * num_row]]

    def read_at_page_by_id(self, category_id, page, num_row):
        """The rows of category `category_id` (an id of `read_category_info`), page `page` of
        `num_row` rows each, as a list of dicts."""
        if not isinstance(category_id, int) or category_id < 0:
            raise ParamValueError("Category id should be int and greater than or equal to 0.")
        _check_page(page, num_row)
        categories = self._category_list()
        if category_id >= len(categories):
            raise pipeline_error(f"Invalid data, category_id: {category_id} must be in the "
                                  f"range [0, {len(categories)}].")
        name, count = categories[category_id]
        return self._page(name, count, page, num_row)

    def read_at_page_by_name(self, category_name, page, num_row):
        """The rows whose category field is `category_name` (a name of
        `read_category_info`), page `page` of `num_row` rows each, as a list of dicts."""
        if not isinstance(category_name, str):
            raise ParamValueError("Category name should be str.")
        _check_page(page, num_row)
        counts = dict(self._category_list())
        if category_name not in counts:
            raise pipeline_error(f"category_name: {category_name} could not found.")
        return self._page(category_name, counts[category_name], page, num_row)


def _check_page(page, num_row) -> None:
    if not isinstance(page, int) or page < 0:
        raise ParamValueError("Page should be int and greater than or equal to 0.")
    if not isinstance(num_row, int) or num_row <= 0:
        raise ParamValueError("num_row should be int and greater than 0.")

