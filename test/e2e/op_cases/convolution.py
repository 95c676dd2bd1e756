"""convolution.py - generated end-to-end cases for the Convolution family:
conv1d/2d/3d with stride, padding, dilation, groups (depthwise included)
and bias or None, conv2d's "same"/"valid" modes, unbatched inputs,
aten::convolution/_convolution plain and transposed, conv_transpose2d."""

import torch
import torch.nn.functional as F

from op_case import Case

torch.manual_seed(0)


def conv2d(x, w, b):
    return torch.conv2d(x, w, b)


def conv2d_s2_p1(x, w, b):
    return torch.conv2d(x, w, b, 2, 1)


def conv2d_nobias_asym(x, w):
    return F.conv2d(x, w, None, stride=(2, 1), padding=(0, 2),
                    dilation=(1, 2))


def conv2d_groups(x, w, b):
    return F.conv2d(x, w, b, stride=1, padding=1, groups=2)


def conv2d_depthwise(x, w, b):
    return F.conv2d(x, w, b, stride=2, padding=1, groups=4)


def conv2d_same(x, w, b):
    return F.conv2d(x, w, b, padding="same", dilation=2)


def conv2d_valid(x, w, b):
    return F.conv2d(x, w, b, padding="valid")


def conv1d(x, w, b):
    return F.conv1d(x, w, b, stride=2, padding=2, dilation=2)


def conv1d_groups(x, w):
    return F.conv1d(x, w, None, padding=1, groups=3)


def conv3d(x, w, b):
    return F.conv3d(x, w, b, stride=(1, 2, 1), padding=1)


def conv3d_groups(x, w, b):
    return F.conv3d(x, w, b, padding=(0, 1, 1), groups=2)


def conv2d_atrous(x, w, b):
    # DeepLabV3's ASPP: a dilation past the feature map leaves only the
    # centre tap reading the input; the others read padding, and are
    # dropped.
    return F.conv2d(x, w, b, padding=(6, 1), dilation=(6, 1))


def conv2d_atrous_depthwise(x, w, b):
    return F.conv2d(x, w, b, padding=8, dilation=8, groups=4)


def conv1d_padding_taps_strided(x, w, b):
    # Only tap 0 reads padding alone: taps 1 and 2 remain, unpadded.
    return F.conv1d(x, w, b, stride=3, padding=2, dilation=2)


def conv3d_atrous(x, w, b):
    return F.conv3d(x, w, b, padding=(0, 4, 4), dilation=(1, 4, 4))


def convolution(x, w, b):
    return torch.convolution(x, w, b, [1, 2], [1, 0], [1, 1], False, [0, 0],
                             1)


def convolution_transposed(x, w, b):
    return torch.convolution(x, w, b, [2, 2], [1, 1], [1, 1], True, [1, 0],
                             1)


def underscore_convolution(x, w, b):
    return torch._convolution(x, w, b, [1, 1], [1, 1], [1, 1], False,
                              [0, 0], 1, False, False, True, True)


def conv_transpose2d(x, w, b):
    return F.conv_transpose2d(x, w, b, stride=2, padding=1)


def conv_transpose2d_groups(x, w):
    return F.conv_transpose2d(x, w, None, stride=(3, 2), padding=(2, 0),
                              output_padding=(1, 1), groups=2,
                              dilation=(1, 2))


def conv_transpose2d_phases(x, w, b):
    # Stride 3 over a kernel of 2: one phase of each dim meets no tap
    # (bias only); padding 3 crops the first and last inputs.
    return F.conv_transpose2d(x, w, b, stride=3, padding=(3, 1),
                              output_padding=(2, 0))


def conv_transpose2d_pointwise(x, w):
    # A 1x1 layer of stride 2 (a downsampling shortcut's input gradient):
    # three of four phases are zeros.
    return F.conv_transpose2d(x, w, None, stride=2, output_padding=1)


def conv_transpose2d_grouped_phases(x, w, b):
    return F.conv_transpose2d(x, w, b, stride=(2, 3), padding=(0, 2),
                              groups=3)


def conv1d_same(x, w, b):
    return F.conv1d(x, w, b, padding="same", dilation=2)


def conv3d_valid(x, w, b):
    return F.conv3d(x, w, b, padding="valid")


def conv3d_same(x, w):
    return F.conv3d(x, w, None, padding="same")


def conv_transpose1d(x, w, b):
    return F.conv_transpose1d(x, w, b, stride=2, padding=1, output_padding=1)


def conv_transpose3d(x, w, b):
    return F.conv_transpose3d(x, w, b, stride=(1, 2, 2), padding=(0, 1, 1))


def rnn_tanh_cell(x, h, w_ih, w_hh, b_ih, b_hh):
    return torch.rnn_tanh_cell(x, h, w_ih, w_hh, b_ih, b_hh)


def rnn_relu_cell(x, h, w_ih, w_hh):
    return torch.rnn_relu_cell(x, h, w_ih, w_hh, None, None)


def gru_cell(x, h, w_ih, w_hh, b_ih, b_hh):
    return torch.gru_cell(x, h, w_ih, w_hh, b_ih, b_hh)


def lstm_cell(x, h, c, w_ih, w_hh, b_ih, b_hh):
    return torch.lstm_cell(x, [h, c], w_ih, w_hh, b_ih, b_hh)


def lstm_cell_nobias(x, h, c, w_ih, w_hh):
    return torch.lstm_cell(x, [h, c], w_ih, w_hh, None, None)


def lstm_layer(x, h, c, w_ih, w_hh, b_ih, b_hh):
    return torch.lstm(x, [h, c], [w_ih, w_hh, b_ih, b_hh], True, 1, 0.0,
                      False, False, False)


def gru_layer_bidirectional(x, h, w_ih, w_hh, w_ih_r, w_hh_r):
    return torch.gru(x, h, [w_ih, w_hh, w_ih_r, w_hh_r], False, 1, 0.0,
                     False, True, True)


def attention_key_padding(q, w, b, pw, pb, mask):
    # nn.MultiheadAttention's fast path with a key_padding_mask [B, S]; a
    # query whose keys are all masked gives NaN, as in ATen.
    return torch._native_multi_head_attention(q, q, q, 8, 2, w, b, pw, pb,
                                              mask, True, False, 1)


def attention_float_mask(q, w, b, pw, pb, mask):
    # A float mask is a bool one where it is non-zero.
    return torch._native_multi_head_attention(q, q, q, 8, 2, w, b, pw, pb,
                                              mask, True, True, 1)


def encoder_layer_key_padding(x, mask, qkv_w, qkv_b, proj_w, proj_b, n1w,
                               n1b, n2w, n2b, f1w, f1b, f2w, f2b):
    # nn.TransformerEncoderLayer's fast path with src_key_padding_mask.
    return torch._transformer_encoder_layer_fwd(
        x, 8, 2, qkv_w, qkv_b, proj_w, proj_b, False, False, 1e-5, n1w, n1b,
        n2w, n2b, f1w, f1b, f2w, f2b, mask, 1)


def bilinear(x1, x2, w, b):
    return F.bilinear(x1, x2, w, b), F.bilinear(x1, x2, w, None)


def r(*shape, dtype=torch.float32):
    return torch.randn(*shape, dtype=dtype)


CASES = [
    Case(conv2d, [r(1, 3, 8, 8), r(4, 3, 3, 3), r(4)]),
    Case(conv2d, [r(2, 3, 9, 7, dtype=torch.float64),
                  r(5, 3, 3, 2, dtype=torch.float64),
                  r(5, dtype=torch.float64)], name="conv2d_f64"),
    Case(conv2d_s2_p1, [r(2, 3, 9, 7), r(4, 3, 3, 3), r(4)], op="conv2d"),
    Case(conv2d_nobias_asym, [r(1, 2, 7, 9), r(3, 2, 2, 3)], op="conv2d"),
    Case(conv2d_groups, [r(2, 4, 6, 6), r(6, 2, 3, 3), r(6)], op="conv2d"),
    Case(conv2d_depthwise, [r(1, 4, 7, 7), r(8, 1, 3, 3), r(8)],
         op="conv2d"),
    Case(conv2d_s2_p1, [r(3, 9, 7), r(4, 3, 3, 3), r(4)],
         name="conv2d_unbatched", op="conv2d"),
    Case(conv2d_same, [r(1, 2, 7, 8), r(3, 2, 4, 3), r(3)],
         op="conv2d.padding"),
    Case(conv2d_valid, [r(1, 2, 7, 8), r(3, 2, 4, 3), r(3)],
         op="conv2d.padding"),
    Case(conv1d, [r(2, 3, 17), r(4, 3, 3), r(4)]),
    Case(conv1d_groups, [r(2, 6, 10), r(9, 2, 3)], op="conv1d"),
    Case(conv3d, [r(1, 2, 5, 6, 4), r(3, 2, 3, 3, 2), r(3)]),
    Case(conv3d_groups, [r(1, 4, 4, 5, 5), r(6, 2, 2, 3, 3), r(6)],
         op="conv3d"),
    Case(conv2d_atrous, [r(1, 3, 5, 7), r(4, 3, 3, 3), r(4)], op="conv2d"),
    Case(conv2d_atrous_depthwise, [r(1, 4, 6, 6), r(4, 1, 3, 3), r(4)],
         op="conv2d"),
    Case(conv1d_padding_taps_strided, [r(2, 2, 3), r(3, 2, 3), r(3)],
         op="conv1d"),
    Case(conv3d_atrous, [r(1, 2, 3, 3, 3), r(3, 2, 3, 3, 3), r(3)],
         op="conv3d"),
    Case(convolution, [r(1, 3, 6, 7), r(2, 3, 3, 3), r(2)]),
    Case(convolution_transposed, [r(1, 3, 4, 5), r(3, 2, 3, 3), r(2)],
         op="convolution"),
    Case(underscore_convolution, [r(1, 3, 6, 7), r(2, 3, 3, 3), r(2)],
         op="_convolution"),
    Case(conv_transpose2d, [r(2, 3, 5, 4), r(3, 4, 3, 3), r(4)],
         op="conv_transpose2d.input"),
    Case(conv_transpose2d_groups, [r(1, 4, 4, 3), r(4, 3, 4, 2)],
         op="conv_transpose2d.input"),
    Case(conv_transpose2d_phases, [r(2, 3, 5, 4), r(3, 2, 2, 2), r(2)],
         op="conv_transpose2d.input"),
    Case(conv_transpose2d_pointwise, [r(2, 4, 3, 5), r(4, 3, 1, 1)],
         op="conv_transpose2d.input"),
    Case(conv_transpose2d_grouped_phases, [r(1, 6, 4, 5), r(6, 2, 3, 4),
                                           r(6)],
         op="conv_transpose2d.input"),
    Case(conv1d_same, [r(2, 3, 11), r(4, 3, 4), r(4)], op="conv1d.padding"),
    Case(conv3d_valid, [r(1, 2, 5, 6, 4), r(3, 2, 3, 3, 2), r(3)],
         op="conv3d.padding"),
    Case(conv3d_same, [r(1, 2, 4, 5, 4), r(3, 2, 3, 2, 3)],
         op="conv3d.padding"),
    Case(conv_transpose1d, [r(2, 3, 7), r(3, 4, 3), r(4)]),
    Case(conv_transpose3d, [r(1, 2, 3, 4, 4), r(2, 3, 2, 3, 3), r(3)],
         op="conv_transpose3d.input"),
    # nn.RNNCell's and nn.GRUCell's fused cells (batched: nn.RNNCell adds
    # the batch dim of an unbatched input before it calls them).
    Case(rnn_tanh_cell, [r(3, 4), r(3, 5), r(5, 4), r(5, 5), r(5), r(5)]),
    Case(rnn_relu_cell, [r(3, 4), r(3, 5), r(5, 4), r(5, 5)]),
    Case(gru_cell, [r(3, 4), r(3, 5), r(15, 4), r(15, 5), r(15), r(15)]),
    # lstm_cell and bilinear have no typed op: tsir-decompose rewrites
    # their prim.Generic nodes.
    Case(lstm_cell, [r(3, 4), r(3, 5), r(3, 5), r(20, 4), r(20, 5), r(20),
                     r(20)]),
    Case(lstm_cell_nobias, [r(2, 3), r(2, 4), r(2, 4), r(16, 3), r(16, 4)],
         op="lstm_cell"),
    # The whole layers (nn.LSTM, nn.GRU) unroll into their cells.
    Case(lstm_layer, [r(5, 2, 3), r(1, 2, 4), r(1, 2, 4), r(16, 3), r(16, 4),
                      r(16), r(16)], op="lstm.input"),
    Case(gru_layer_bidirectional, [r(2, 6, 3), r(2, 2, 4), r(12, 3),
                                   r(12, 4), r(12, 3), r(12, 4)],
         op="gru.input"),
    Case(attention_key_padding,
         [r(2, 5, 8), r(24, 8), r(24), r(8, 8), r(8),
          torch.tensor([[False, False, True, False, True], [True] * 5])],
         op="_native_multi_head_attention"),
    Case(attention_float_mask,
         [r(2, 5, 8), r(24, 8), r(24), r(8, 8), r(8),
          torch.tensor([[0., 0., 1., 0., 2.], [0., 1., 0., 0., 0.]])],
         op="_native_multi_head_attention"),
    Case(encoder_layer_key_padding,
         [r(2, 5, 8), torch.tensor([[False, True, False, False, True],
                                    [False] * 5]),
          r(24, 8), r(24), r(8, 8), r(8), r(8), r(8), r(8), r(8),
          r(16, 8), r(16), r(8, 16), r(8)],
         op="_transformer_encoder_layer_fwd"),
    Case(bilinear, [r(3, 4), r(3, 5), r(6, 4, 5), r(6)]),
    Case(bilinear, [r(2, 3, 4), r(2, 3, 5), r(6, 4, 5), r(6)],
         name="bilinear_3d"),
    Case(bilinear, [r(4), r(5), r(6, 4, 5), r(6)], name="bilinear_unbatched"),
]
