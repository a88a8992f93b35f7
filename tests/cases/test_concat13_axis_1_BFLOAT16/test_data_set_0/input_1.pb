
Binput_1JÀ