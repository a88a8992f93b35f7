
2a2bcBinput_0