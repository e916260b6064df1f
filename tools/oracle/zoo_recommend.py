"""Builders of research/recommend networks of mindspore-ai/models for zoo_program.py, by the
rule and with the helpers of zoo_networks.py (its docstring says what a builder returns)."""
import types

from zoo_networks import BATCH, FFN, VOCAB, WIDTH, Run, ctr_inputs, default_config


def ctr_sections(**model):
    """The model and train sections of a CTR folder's default_config.yaml (DataConfig,
    ModelConfig, TrainConfig), at the tiny sizes with `model`'s entries set; the folder's
    config module reads them so, its `DataConfig.x` values taken from DataConfig."""
    config = default_config()
    data = dict(config.DataConfig, batch_size=BATCH, data_vocab_size=VOCAB)

    def section(entries, **sets):
        values = {key: data[value.split(".", 1)[1]]
                  if isinstance(value, str) and value.startswith("DataConfig.") else value
                  for key, value in entries.items()}
        return types.SimpleNamespace(**dict(values, **sets))

    model = section(config.ModelConfig, data_emb_dim=WIDTH, keep_prob=1.0, **model)
    return model, section(config.TrainConfig)


def deep_and_cross():
    from src.config import DeepCrossConfig
    from src.deep_and_cross import DeepCrossModel, NetWithLossClass, TrainStepWrap

    config = DeepCrossConfig()
    config.batch_size, config.vocab_size, config.emb_dim = BATCH, VOCAB, WIDTH
    config.deep_layer_dim = [FFN, FFN]
    net = DeepCrossModel(config)
    step = TrainStepWrap(NetWithLossClass(net))
    batch_ids, weights, label = ctr_inputs(config)
    return Run(net, (batch_ids, weights), step, (batch_ids, weights, label))


def _ctr_builder(model_builder, model):
    """Run of a folder whose ModelBuilder gives its one-step cell and its prediction cell."""
    step, predict = model_builder
    config = types.SimpleNamespace(field_size=model.data_field_size)
    batch_ids, weights, label = ctr_inputs(config)
    return Run(predict, (batch_ids, weights, label), step, (batch_ids, weights, label))


def edcn():
    from src.edcn import ModelBuilder

    model, train = ctr_sections()
    return _ctr_builder(ModelBuilder(model, train).get_train_eval_net(), model)


def autodis():
    from src.autodis import ModelBuilder

    model, train = ctr_sections(deep_layer_args=[[FFN, FFN, WIDTH], "relu"])
    return _ctr_builder(ModelBuilder(model, train).get_train_eval_net(), model)


def fibinet():
    from src.model_builder import ModelBuilder

    config = default_config()
    config.batch_size, config.vocab_size, config.emb_dim = BATCH, VOCAB, WIDTH
    config.deep_layer_dim = [FFN, FFN, WIDTH]
    step, predict = ModelBuilder().get_net(config)
    batch_ids, weights, label = ctr_inputs(config)
    return Run(predict, (batch_ids, weights, label), step, (batch_ids, weights, label))


BUILDERS = {"deep_and_cross": deep_and_cross, "edcn": edcn, "autodis": autodis,
            "fibinet": fibinet}
