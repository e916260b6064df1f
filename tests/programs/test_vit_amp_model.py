"""A small Vision Transformer trained the way the model zoo's ViT script does: patch embedding
by a strided Conv2d, a class token Parameter tiled over the batch with ops.tile and joined by
ops.concat, learned position embeddings, pre-norm encoder blocks with nn.MultiheadAttention and
an MLP of nn.GELU, Model with amp_level="O2" and a DynamicLossScaleManager, a cosine-decay
learning-rate list from nn.cosine_decay_lr, CheckpointConfig/ModelCheckpoint, and Model.eval
with Accuracy."""
import numpy as np

import cellgraph as ms
import cellgraph.dataset as ds
from cellgraph import Parameter, Tensor, nn, ops
from cellgraph.common.initializer import TruncatedNormal, initializer

DIM, PATCH, SIZE, CLASSES = 16, 4, 8, 2


class Block(nn.Cell):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm1 = nn.LayerNorm((dim,))
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm2 = nn.LayerNorm((dim,))
        self.mlp = nn.SequentialCell(nn.Dense(dim, dim * 2), nn.GELU(approximate=False),
                                     nn.Dense(dim * 2, dim))

    def construct(self, x):
        y = self.norm1(x)
        x = x + self.attn(y, y, y)[0]
        return x + self.mlp(self.norm2(x))


class ViT(nn.Cell):
    def __init__(self, depth=2, heads=2):
        super().__init__()
        self.patch_embed = nn.Conv2d(1, DIM, PATCH, stride=PATCH, has_bias=True)
        num_patches = (SIZE // PATCH) ** 2
        self.cls_token = Parameter(initializer(TruncatedNormal(0.02), (1, 1, DIM), ms.float32),
                                   name="cls")
        self.pos_embed = Parameter(initializer(TruncatedNormal(0.02), (1, num_patches + 1, DIM),
                                               ms.float32), name="pos_embed")
        self.blocks = nn.CellList([Block(DIM, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm((DIM,))
        self.head = nn.Dense(DIM, CLASSES)

    def construct(self, x):
        x = self.patch_embed(x)                      # (B, D, H/P, W/P)
        b, d = x.shape[0], x.shape[1]
        x = x.reshape(b, d, -1).transpose(0, 2, 1)   # (B, N, D)
        cls = ops.tile(self.cls_token, (b, 1, 1))
        x = ops.concat((cls, x), axis=1) + self.pos_embed
        for block in self.blocks:
            x = block(x)
        return self.head(self.norm(x)[:, 0])


def stripes(n, seed):
    """Horizontal stripes (class 0) against vertical stripes (class 1), with noise."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, CLASSES, size=n).astype(np.int32)
    grid = np.tile(np.arange(SIZE) % 2, (n, 1))
    images = np.where(labels[:, None, None] == 0, grid[:, :, None].repeat(SIZE, 2),
                      grid[:, None, :].repeat(SIZE, 1)).astype(np.float32)
    images += rng.normal(scale=0.2, size=images.shape).astype(np.float32)
    return images[:, None], labels


def dataset(n, seed, batch):
    images, labels = stripes(n, seed)
    data = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=False)
    return data.batch(batch, drop_remainder=True)


def test_vit_shapes_and_class_token():
    net = ViT()
    images, _ = stripes(3, 0)
    assert net(Tensor(images)).shape == (3, CLASSES)
    names = [p.name for p in net.trainable_params()]
    assert "cls" in names and "pos_embed" in names and "blocks.1.attn.in_proj_weight" in names


def test_vit_model_train_o2_with_loss_scale(tmp_path):
    ms.set_seed(0)
    net = ViT()
    steps_per_epoch, epochs = 6, 5
    lr = nn.cosine_decay_lr(min_lr=1e-4, max_lr=3e-3, total_step=steps_per_epoch * epochs,
                            step_per_epoch=steps_per_epoch, decay_epoch=epochs)
    opt = nn.AdamWeightDecay(net.trainable_params(), learning_rate=lr, weight_decay=0.01)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    manager = ms.DynamicLossScaleManager(init_loss_scale=2 ** 12, scale_factor=2,
                                         scale_window=50)
    model = ms.Model(net, loss_fn=loss, optimizer=opt, metrics={"acc": nn.Accuracy()},
                     amp_level="O2", loss_scale_manager=manager)
    config = ms.CheckpointConfig(save_checkpoint_steps=steps_per_epoch * epochs,
                                 keep_checkpoint_max=1)
    ckpt = ms.ModelCheckpoint(prefix="vit", directory=str(tmp_path), config=config)
    model.train(epochs, dataset(48, 0, 8), callbacks=[ckpt], dataset_sink_mode=False)
    assert net.head.weight.dtype == ms.float32          # O2 keeps float32 master weights
    assert net.patch_embed.weight.dtype == ms.float32
    result = model.eval(dataset(32, 1, 8), dataset_sink_mode=False)
    assert result["acc"] > 0.9
    saved = ms.load_checkpoint(str(tmp_path / f"vit-{epochs}_{steps_per_epoch}.ckpt"))
    np.testing.assert_array_equal(saved["cls"].asnumpy(), net.cls_token.asnumpy())
