
Binput_0Jÿ