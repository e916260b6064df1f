"""Food101Dataset and RenderedSST2Dataset read their folders as MindSpore 2.10 reads them: the
rows, their order and labels below are what it gives for the same synthetic files."""
import numpy as np
import pytest

import cellgraph.dataset as ds

pytest.importorskip("PIL")  # the sources' images are written and decoded with Pillow


def _png(path, value):
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(np.full((4, 5, 3), value, np.uint8)).save(path)


@pytest.fixture
def food(tmp_path):
    for number, (cls, name) in enumerate([("pizza", "1"), ("pasta", "2"), ("pizza", "3")]):
        _png(tmp_path / "images" / cls / f"{name}.jpg", 40 * number)
    (tmp_path / "meta").mkdir()
    (tmp_path / "meta" / "train.txt").write_text("pizza/1\npasta/2\n")
    (tmp_path / "meta" / "test.txt").write_text("pizza/3\n")
    return str(tmp_path)


def test_food101_rows(food):
    data = ds.Food101Dataset(food, shuffle=False)
    assert data.get_dataset_size() == 3
    rows = list(data.create_tuple_iterator(output_numpy=True))
    assert [str(r[1]) for r in rows] == ["pizza", "pasta", "pizza"]  # train, then test
    assert rows[0][0].dtype == np.uint8 and rows[0][0].ndim == 1  # the file's bytes
    decoded = ds.Food101Dataset(food, "test", decode=True, shuffle=False)
    image = next(decoded.create_tuple_iterator(output_numpy=True))[0]
    assert image.shape == (4, 5, 3) and int(image[0, 0, 0]) == 80


def test_food101_errors(food, tmp_path):
    with pytest.raises(ValueError, match=r"usage is not within the valid set of \['train', "
                                         r"'test', 'all'\]"):
        ds.Food101Dataset(food, "valid")
    with pytest.raises(RuntimeError, match="Food101 image path: .* does not exist"):
        list(ds.Food101Dataset(str(tmp_path / "meta")))


@pytest.fixture
def sst2(tmp_path):
    for split in ("train", "valid"):
        for cls, names in (("negative", ["b.png", "a.png"]), ("positive", ["c.png"])):
            for k, name in enumerate(names):
                _png(tmp_path / split / cls / name, 10 * k)
    (tmp_path / "train" / "negative" / "notes.txt").write_text("not an image")
    return str(tmp_path)


def test_rendered_sst2_rows(sst2):
    import os

    data = ds.RenderedSST2Dataset(sst2, "val", shuffle=False)
    assert data.get_dataset_size() == 3
    labels = [int(r[1]) for r in data.create_tuple_iterator(output_numpy=True)]
    # class ids in the order the folders are listed; rows by folder path, then file name
    first = os.listdir(os.path.join(sst2, "valid"))[0]
    expected = {first: 0, ({"negative", "positive"} - {first}).pop(): 1}
    assert labels == [expected["negative"]] * 2 + [expected["positive"]]
    assert ds.RenderedSST2Dataset(sst2, "all").get_dataset_size() == 6
    with pytest.raises(ValueError, match="is not within the valid set of"):
        ds.RenderedSST2Dataset(sst2, "dev")
    with pytest.raises(RuntimeError, match="RenderedSST2Dataset API can't read the data file"):
        list(ds.RenderedSST2Dataset(sst2, "test"))


@pytest.fixture
def places(tmp_path):
    (tmp_path / "categories_places365.txt").write_text("/a/airfield 0\n/a/cabin 1\n")
    (tmp_path / "places365_val.txt").write_text("/a/cabin/2.jpg 1\n/a/airfield/1.jpg 0\n")
    _png(tmp_path / "val_256" / "a" / "cabin" / "2.jpg", 100)
    _png(tmp_path / "val_256" / "a" / "airfield" / "1.jpg", 200)
    return str(tmp_path)


def test_places365_rows_in_list_order(places):
    data = ds.Places365Dataset(places, "val", small=True, decode=True, shuffle=False)
    rows = list(data.create_tuple_iterator(output_numpy=True))
    assert [int(r[1]) for r in rows] == [1, 0]
    assert rows[0][1].dtype == np.uint32 and rows[0][0].shape == (4, 5, 3)
    assert [int(r[0][0, 0, 0]) for r in rows] == [100, 200]


def test_places365_errors(places):
    with pytest.raises(ValueError, match=r"usage is not within the valid set of "
                                         r"\['train-standard', 'train-challenge', 'val'\]"):
        ds.Places365Dataset(places, "test")
    # the large images' folder is missing: counting checks every image, as MindSpore's does
    with pytest.raises(RuntimeError, match="val_large//a/cabin/2.jpg does not exists"):
        ds.Places365Dataset(places, "val", small=False).get_dataset_size()
    with pytest.raises(RuntimeError, match="places365_train_standard.txt: Places365 file is "
                                           "damaged"):
        list(ds.Places365Dataset(places))


@pytest.fixture
def photo_tour(tmp_path):
    from PIL import Image

    folder = tmp_path / "liberty"
    folder.mkdir()
    sheet = (np.arange(1024 * 1024) % 251).astype(np.uint8).reshape(1024, 1024)
    Image.fromarray(sheet, "L").save(folder / "patches0000.bmp")
    (folder / "info.txt").write_text("7 0\n7 0\n9 0\n")
    (folder / "m50_100000_100000_0.txt").write_text("0 7 0 1 7 0 0\n1 7 0 200 9 0 0\n")
    return str(tmp_path), sheet


def test_photo_tour_patches(photo_tour):
    folder, sheet = photo_tour
    train = ds.PhotoTourDataset(folder, "liberty", "train", shuffle=False)
    assert train.get_col_names() == ["image"] and train.get_dataset_size() == 3
    patches = [r[0] for r in train.create_tuple_iterator(output_numpy=True)]
    assert patches[1].shape == (64, 64, 1) and patches[1].dtype == np.uint8
    np.testing.assert_array_equal(patches[1][..., 0], sheet[:64, 64:128])  # patch 1: row 0, col 1
    test = ds.PhotoTourDataset(folder, "liberty", "test", shuffle=False)
    rows = list(test.create_tuple_iterator(output_numpy=True))
    assert [int(r[2]) for r in rows] == [1, 0]  # same 3D point or not
    np.testing.assert_array_equal(rows[1][1][..., 0], sheet[12 * 64:13 * 64, 8 * 64:9 * 64])
    # a PKSampler groups the rows by 3D point (info.txt), as MindSpore's reader does
    grouped = ds.PhotoTourDataset(folder, "liberty", "train", sampler=ds.PKSampler(1))
    assert grouped.get_dataset_size() == 2
    with pytest.raises(ValueError, match="name is not within the valid set"):
        ds.PhotoTourDataset(folder, "paris")
    with pytest.raises(RuntimeError, match="yosemite does not exist"):
        list(ds.PhotoTourDataset(folder, "yosemite"))


@pytest.fixture
def cityscapes(tmp_path):
    for usage, city, number in (("train", "b", 2), ("train", "a", 1), ("val", "c", 3)):
        _png(tmp_path / "leftImg8bit" / usage / city / f"{city}_{number}_leftImg8bit.png",
             number)
        _png(tmp_path / "gtFine" / usage / city / f"{city}_{number}_gtFine_color.png",
             10 * number)
        (tmp_path / "gtFine" / usage / city / f"{city}_{number}_gtFine_polygons.json").write_text(
            '{"zeta": [1, 2.5, 1e20], "alpha": {"b": "\\u00e9", "a": null}}')
    return str(tmp_path)


def test_cityscapes_rows(cityscapes):
    data = ds.CityscapesDataset(cityscapes, "all", "fine", "color", decode=True, shuffle=False)
    # usage "all" reads train, test and val: there is no test folder here
    with pytest.raises(RuntimeError, match="leftImg8bit/test is not a directory path"):
        data.get_dataset_size()
    data = ds.CityscapesDataset(cityscapes, "train", "fine", "color", decode=True,
                                shuffle=False)
    rows = list(data.create_tuple_iterator(output_numpy=True))
    assert [(int(r[0][0, 0, 0]), int(r[1][0, 0, 0])) for r in rows] == [(1, 10), (2, 20)]
    polygon = ds.CityscapesDataset(cityscapes, "val", task="polygon", shuffle=False)
    text = str(next(polygon.create_tuple_iterator(output_numpy=True))[1])
    # MindSpore's JSON writing (recorded from MindSpore 2.10): compact, keys sorted
    assert text == '{"alpha":{"a":null,"b":"é"},"zeta":[1,2.5,1e+20]}'


def test_cityscapes_errors(cityscapes):
    with pytest.raises(ValueError, match=r"usage is not within the valid set of \['train', "
                                         r"'train_extra', 'val', 'all'\]"):
        ds.CityscapesDataset(cityscapes, "test", "coarse")
    with pytest.raises(RuntimeError, match=r"_gtFine_instanceIds.png does not exist"):
        list(ds.CityscapesDataset(cityscapes))


@pytest.fixture
def div2k(tmp_path):
    for name, value in (("0002", 20), ("0001", 10)):
        _png(tmp_path / "DIV2K_train_HR" / f"{name}.png", value)
        _png(tmp_path / "DIV2K_train_LR_bicubic" / "X2" / f"{name}x2.png", value + 1)
        _png(tmp_path / "DIV2K_train_LR_mild" / f"{name}x4m.png", value + 2)
    return str(tmp_path)


def test_div2k_pairs(div2k):
    data = ds.DIV2KDataset(div2k, decode=True, shuffle=False)
    assert data.get_col_names() == ["hr_image", "lr_image"]
    pairs = [(int(h[0, 0, 0]), int(low[0, 0, 0]))
             for h, low in data.create_tuple_iterator(output_numpy=True)]
    assert pairs == [(10, 11), (20, 21)]
    mild = ds.DIV2KDataset(div2k, downgrade="mild", scale=4, decode=True, shuffle=False)
    assert [int(r[1][0, 0, 0]) for r in mild.create_tuple_iterator(output_numpy=True)] == \
        [12, 22]


def test_div2k_errors(div2k):
    with pytest.raises(ValueError, match="scale equal to 8 is allowed only in bicubic"):
        ds.DIV2KDataset(div2k, downgrade="mild", scale=8)
    with pytest.raises(ValueError, match="wild downgrade requires scale equal to 4"):
        ds.DIV2KDataset(div2k, downgrade="wild")
    with pytest.raises(RuntimeError, match="div2k lr image dir: .*X3 is not a directory"):
        list(ds.DIV2KDataset(div2k, scale=3))
