
Binput_0JâD‰ºñ