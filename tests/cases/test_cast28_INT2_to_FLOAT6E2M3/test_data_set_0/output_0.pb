Boutput_0J0
 